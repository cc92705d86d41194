"""The verify report as JUnit XML, for the CI systems that read it."""

from __future__ import annotations

from typing import Any

from .. import __version__
from ..status import Status
from .github import in_working_folder
from .model import Report
from .safetext import xml_safe
from .text import failure_lines


def junit_xml(report: Report) -> str:
    """JUnit XML: one testsuite per game and kind, one testcase per trace or scenario. Characters XML
    cannot hold are replaced (see ``xml_safe``), so the file always parses."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name=f"refimpl verify: {report.build or report.command}")
    kit = {f"refimpl.{k}": v for k, v in report.kit.items() if k != "name"}

    def properties(suite_element: ET.Element) -> None:
        """The kit that judged (its version and suite digest) on every suite, as JUnit readers show them."""
        props = ET.SubElement(suite_element, "properties")
        for name, value in kit.items():
            ET.SubElement(props, "property", name=name, value=value)

    groups: dict[tuple[str, str], list[Any]] = {}
    for c in report.checks:
        groups.setdefault((c.game, c.kind), []).append(c)
    if report.broke_at_start is not None:
        suite_element = ET.SubElement(root, "testsuite", name="build", tests="1", failures="0", errors="1",
                                      skipped="0")
        properties(suite_element)
        case = ET.SubElement(suite_element, "testcase", classname="build", name="start")
        ET.SubElement(case, "error", type=report.broke_at_start.cause, message=str(report.broke_at_start))
        ET.SubElement(case, "system-err").text = report.broke_at_start.stderr_tail
    for (game, kind), checks in groups.items():
        suite_element = ET.SubElement(root, "testsuite", name=f"{game} {kind}s", tests=str(len(checks)),
                                      failures=str(sum(c.status in (Status.FAILED, Status.XPASS) for c in checks)),
                                      errors=str(sum(c.status == Status.BROKE for c in checks)),
                                      skipped=str(sum(c.status in (Status.NOT_RUN, Status.XFAIL) for c in checks)))
        properties(suite_element)
        for c in checks:
            case = ET.SubElement(suite_element, "testcase", classname=f"{game}.{kind}", name=c.name,
                                 time=f"{c.seconds:.3f}")
            where = c.failure if c.failure is not None and c.failure.file else c
            props = ET.SubElement(case, "properties")
            if where.file and in_working_folder(where.file):  # a user's own file: viewers link to it
                case.set("file", where.file)
                if where.line:
                    case.set("line", str(where.line))
            elif where.file:  # a file of the kit: named in the kit that judged, not as a path of the user's
                place = f"{where.file}:{where.line}" if where.line else where.file
                ET.SubElement(props, "property", name="kit_file", value=f"refimpl {__version__} {place}")
            ET.SubElement(props, "property", name="rules", value=" ".join(c.rules))
            if c.status == Status.FAILED:
                text = "\n".join(failure_lines(c.failure)) if c.failure is not None else c.detail
                ET.SubElement(case, "failure", message=c.detail.splitlines()[0] if c.detail else "").text = text
            elif c.status == Status.XPASS:
                ET.SubElement(case, "failure", message="expected to fail, but passed").text = c.reason
            elif c.status == Status.BROKE:
                ET.SubElement(case, "error", message=c.detail.splitlines()[0] if c.detail else "").text = c.detail
            elif c.status in (Status.NOT_RUN, Status.XFAIL):
                ET.SubElement(case, "skipped", message=c.reason or c.detail)
            if c.stderr:
                ET.SubElement(case, "system-err").text = c.stderr
    for element in root.iter():  # a build's names and stderr may hold what XML cannot
        element.text = None if element.text is None else xml_safe(element.text)
        element.attrib = {k: xml_safe(v) for k, v in element.attrib.items()}
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
