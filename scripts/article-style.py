#!/usr/bin/env python3
"""Writes the API of a tracking spec as a developer would by hand, in the style of
the analytics-service article (static factories building AnalyticsEvent with a
dictionary literal), as the baseline for the type-checking time of generated code.

usage: python3 scripts/article-style.py SPEC OUT.swift
"""
import re
import sys

import yaml

SCALARS = {"string": ("String", "string"), "int": ("Int", "int"), "double": ("Double", "double"),
           "bool": ("Bool", "bool"), "date": ("Date", "date"), "url": ("URL", "url"), "uuid": ("UUID", "uuid")}


def camel(name, upper=False):
    words = [w for w in re.split(r"[ _.\-]+", name) if w]
    first = words[0]
    head = first[0].upper() + first[1:] if upper else first[0].lower() + first[1:]
    return head + "".join(w[0].upper() + w[1:] for w in words[1:])


def main():
    spec_path, out_path = sys.argv[1], sys.argv[2]
    spec = yaml.safe_load(open(spec_path, encoding="utf-8"))
    lines = ["// Hand-written style (analytics-service article), for comparison only.", "import Anna", "import Foundation", ""]
    for name, body in (spec.get("types") or {}).items():
        cases = "\n".join(f'    case `{camel(v)}` = "{v}"' for v in body["enum"])
        lines.append(f"enum {camel(name, True)}: String {{\n{cases}\n}}\n")
    lines.append("extension AnalyticsEvent {")
    for name, body in (spec.get("events") or {}).items():
        params = (body or {}).get("parameters") or {}
        if not params:
            lines.append(f'    static let {camel(name)} = AnalyticsEvent(name: "{name}")')
            continue
        args, entries = [], []
        for pname, ptype in params.items():
            text = ptype if isinstance(ptype, str) else ("[" + ptype[0] + "]" if isinstance(ptype, list) else ptype["type"])
            optional = text.endswith("?")
            text = text.rstrip("?")
            is_array = text.startswith("[")
            base = text.strip("[] ")
            swift, case = SCALARS.get(base, (camel(base, True), None))
            value = camel(pname)
            if case is None:
                element = "$0.rawValue" if is_array else f"{value}.rawValue"
                case = "string"
            else:
                element = "$0" if is_array else value
            if is_array:
                swift = f"[{swift}]"
                expr = f".array({value}.map {{ .{case}({element}) }})"
            else:
                expr = f".{case}({element})"
            if optional:
                args.append(f"{value}: {swift}? = nil")
                entries.append((pname, None, value, expr))
            else:
                args.append(f"{value}: {swift}")
                entries.append((pname, expr, None, None))
        lines.append(f"    static func {camel(name)}({', '.join(args)}) -> AnalyticsEvent {{")
        required = ", ".join(f'"{p}": {e}' for p, e, _, _ in entries if e)
        keyword = "var" if any(v for _, _, v, _ in entries) else "let"
        lines.append(f"        {keyword} parameters: [String: AnalyticsValue] = [{required or ':'}]")
        for p, _, value, expr in entries:
            if value:
                lines.append(f'        if let {value} {{ parameters["{p}"] = {expr} }}')
        lines.append(f'        return AnalyticsEvent(name: "{name}", parameters: parameters)')
        lines.append("    }")
    lines.append("}")
    open(out_path, "w", encoding="utf-8").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
