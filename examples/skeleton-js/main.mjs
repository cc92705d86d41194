#!/usr/bin/env node
// THE PROTOCOL LOOP: do not edit. Your game goes in game.mjs.
//
// Speaks the kit's build protocol, version 1 (specs/protocol.md), on stdin/stdout, through the kit's adapter
// module (refimpl-adapter.mjs, written by `refimpl adapter js`): one JSON request per line in, one JSON answer
// per line out, in request order. Node 18 or later, no dependencies; ES modules (.mjs), so it runs the same in a
// "type": "module" project and a CommonJS one.
//
//   refimpl verify --impl "node examples/skeleton-js/main.mjs" --game beacon-lines
//
// Standard output carries answers and nothing else: the adapter sends console.log to stderr. An exception in
// your game code is not hidden: it is logged with the request and the process exits, which the kit reports as
// "build broke" with the last lines of stderr. The same game object serves a web page: see docs/page.md.

import { createHandler, serveStdio } from './refimpl-adapter.mjs';
import { BUILD, game } from './game.mjs';

serveStdio(createHandler([game], { build: BUILD }));
