#!/usr/bin/env python3
"""Writes Sources/_AnnaGovernance/Templates/DefaultTemplates.swift from Templates/*.mustache.

The templates are built into the generator so the build plugin works wherever the
package is checked out. Run this after editing a template; a test fails while the
two disagree.

The generator renders the built-in templates through Swift written from them by
hand (Sources/_AnnaGeneratorCore/Rendering/CompiledTemplates.swift), which is many
times faster than interpreting Mustache; the embedded copy serves `--templates`
folders that replace only some templates, and tests. After editing a template,
change CompiledTemplates.swift to match: CompiledTemplateTests fails while the
compiled and the Mustache rendering of any fixture spec differ.
"""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
templates = sorted((root / "Templates").glob("*.mustache"))
out = root / "Sources/_AnnaGovernance/Templates/DefaultTemplates.swift"
parts = [
    "// Written by scripts/embed-templates.py from Templates/. Do not edit; edit the templates and run the script.\n",
    "\n",
    "/// The templates in `Templates/`, built in.\n",
    "enum DefaultTemplates {\n",
    "    /// Template name (file name without `.mustache`) to source.\n",
    "    static let all: [String: String] = [\n",
]
for path in templates:
    text = path.read_text(encoding="utf-8")
    assert '"""#' not in text, f"{path} contains a raw-string terminator"
    parts.append(f'        "{path.stem}": #"""\n{text}\n"""#,\n')
parts.append("    ]\n}\n")
out.write_text("".join(parts), encoding="utf-8")
print(f"wrote {out.relative_to(root)} from {len(templates)} templates")
print("now change Sources/_AnnaGeneratorCore/Rendering/CompiledTemplates.swift to match, and run swift test --filter CompiledTemplateTests")
