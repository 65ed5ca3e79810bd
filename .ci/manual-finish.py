#!/usr/bin/env python3
"""Finishes the page swift-argument-parser's generate-manual writes, so `mandoc -T lint` has
nothing to say and the page has what a manual needs that the generator cannot know.

Reads the generated page on standard input and writes the finished one on standard output:
one sentence a line and text lines of at most 80 bytes (mdoc's own style), no paragraph macro
before a list item, blank lines as .Pp, and the EXIT STATUS (every status, with its meaning)
and EXAMPLES sections. `.ci/manual` runs it; ManualTests runs it on a fresh page to compare.
"""
import re
import sys

EXIT_STATUS = [
    ("0", "Done; warnings are allowed."),
    ("1", "With --check: a report on disk differs from what would be written, is missing, or is no trip's any more."),
    ("64", "Bad usage: an unknown option or command, a bad value, options that do not go together."),
    ("65", "A trip is invalid (its problems are on standard error); with import, the file holds nothing to import."),
    ("66", "A trip or input file is missing or cannot be read."),
    ("69", "A service is unavailable: no browser to print a PDF, the browser failed, or serve's port is in use."),
    ("73", "An output file or folder cannot be created."),
    ("74", "Writing failed part-way (the disk is full); the old file is left as it was."),
    ("78", "The templates given with --templates are missing or do not compile."),
    ("130", "Interrupted by SIGINT; no temporary file is left."),
    ("143", "Stopped by SIGTERM; no temporary file is left."),
]

EXAMPLES = [
    ("Render a trip as an HTML page to print or open in a browser:", "detour-report trip.json > plan.html"),
    ("Print it to PDF on Letter paper, as of a given day:",
     "detour-report trip.json -o plan.pdf --paper letter --today 2026-11-24"),
    ("Check every trip in a folder and its subfolders:", "detour-report validate trips/ -r"),
    ("Render a folder of trips as HTML and Markdown, with an index:",
     "detour-report trips/ -d out/ --format html,markdown"),
    ("In CI, fail when the reports kept in the repository are stale:",
     "detour-report trips/ -d out/ --format html,markdown --check"),
    ("Start a trip, or make one of a map app's waypoints:",
     "detour-report init trip.json\ndetour-report import places.gpx -o trip.json"),
    ("Serve a folder with live preview and calendar feeds:", "detour-report serve trips/ --port 8080"),
]


def sentences(text):
    """A text line split after each sentence (a full stop, question or exclamation mark, then a
    space and a capital or a digit), then wrapped at 80 bytes between words."""
    parts = re.split(r"(?<=[.?!])\s+(?=[A-Z0-9(])", text)
    lines = []
    for part in parts:
        line = ""
        for word in part.split(" "):
            candidate = word if not line else line + " " + word
            if len(candidate.encode()) > 80 and line:
                lines.append(line)
                line = word
            else:
                line = candidate
        if line:
            lines.append(line)
    # A line must not start with a dot or an apostrophe, which mdoc reads as a macro.
    return ["\\&" + line if line[:1] in (".", "'") else line for line in lines]


def finish(page):
    out = []
    lines = page.split("\n")
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line == ".Pp" and following.startswith(".It"):
            continue
        if line == "":
            if out and out[-1] != ".Pp" and index < len(lines) - 1:
                out.append(".Pp")
            continue
        if line.startswith(".Nd ") and line.endswith('."'):
            # A name's description ends without a full stop.
            out.append(line[:-2] + '"')
        elif line.startswith(".") or line.startswith("'"):
            out.append(line)
        else:
            out.extend(sentences(line))
    text = "\n".join(out).rstrip("\n") + "\n"
    status = [".Sh \"EXIT STATUS\"", ".Bl -tag -width Ds"]
    for code, meaning in EXIT_STATUS:
        status += [".It " + code] + sentences(meaning)
    status.append(".El")
    examples = [".Sh EXAMPLES"]
    for what, commands in EXAMPLES:
        examples += sentences(what) + [".Bd -literal -offset indent"] + commands.split("\n") + [".Ed"]
    text = text.replace(".Sh \"EXIT STATUS\"\n.Ex -std\n", "\n".join(status + examples) + "\n")
    return text


if __name__ == "__main__":
    sys.stdout.write(finish(sys.stdin.read()))
