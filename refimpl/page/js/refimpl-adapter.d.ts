// Types of refimpl-adapter.mjs (written by `refimpl adapter js`). The protocol: specs/protocol.md, version 1.

/** Plain JSON data, as the protocol carries it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An action of a game, as its spec's "Actions" writes it: an object with a string `type`. */
export interface Action { type: string; [key: string]: Json }

/** A refusal by the rules: `code` is the spec's code (only it is compared), `message` free text. */
export declare class Rejection {
  constructor(code: string, message?: string);
  readonly code: string;
  readonly message: string;
}

/** `apply` of an action the rules forbid, or `start` of a set-up the game cannot use. */
export declare function reject(code: string, message?: string): Rejection;

type Maybe<T> = T | Promise<T>;

/** One game's rules, in the protocol's words. `State` is whatever the game keeps: the adapter only holds it. */
export interface Game<State = unknown> {
  /** The game's name, as its spec names it (`lantern-quay`). */
  name: string;
  /** Every ruleset the game implements; only these are judged. */
  rulesets: string[];
  /** The ruleset a `start` with `"ruleset": null` plays (the spec's default); the first of `rulesets` if left out. */
  defaultRuleset?: string;
  /** Games with hidden information: the observers `state` and `legal` accept (others are `bad-request`). */
  observers?: string[];
  /** Observers that name the full view, answered as `null` (Conquest King's `referee`). */
  nullObservers?: string[];
  /** The game draws chance from a source of its own (`Math.random`): the kit then gives every outcome. */
  explicitChance?: boolean;
  /** The start state, or `reject(...)` for a set-up the game cannot use (answered `bad-request`). */
  start(ruleset: string, seed: number | null, setup: { [key: string]: Json }): Maybe<State | Rejection>;
  /** The state after `action` (a new one; the old one is not kept), or `reject(code, why)`. */
  apply(state: State, action: Action): Maybe<State | Rejection>;
  /** The spec's "State view" for `observer` (`null`: the full view). */
  view(state: State, observer: string | null): Maybe<{ [key: string]: Json }>;
  /** Every legal action now (the capability `legal`), the referee's list for `observer` null. */
  legal?(state: State, observer: string | null): Maybe<Action[]>;
  /** The game's result once it is over, else `null` (for the statistics a game keeps). */
  result?(state: State): Maybe<string | null>;
  /** The records a game keeps over a session (Ludo's LD-STAT-1): their keys, and a record after one game
   *  ends with `result` (`null`: left unfinished). */
  statistics?: { keys: string[]; record(record: { [key: string]: number }, result: string | null): { [key: string]: number } };
}

/** A protocol request and its answer, as JSON. */
export type Request = { id: number; op: string; [key: string]: Json };
export type Answer = { id: number | null; ok: boolean; [key: string]: Json };

/** One session of the protocol over `games`. */
export interface Handler { handle(request: Json): Promise<Answer> }

export declare const PROTOCOL: 1;
export declare function createHandler(games: Game<any> | Game<any>[], options?: { build?: { name: string; version?: string } }): Handler;
/** `globalThis[name] = { handle }` (default `refimpl`): the contract `refimpl verify --page` speaks to. */
export declare function exposeInPage(handler: Handler, name?: string): { handle(request: Json): Promise<Answer> };
/** JSON Lines on Node's standard input and output (`refimpl verify --impl "node main.mjs"`). */
export declare function serveStdio(handler: Handler): void;
