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
    objects = {name for name, body in (spec.get("types") or {}).items() if "properties" in body}
    for name, body in (spec.get("types") or {}).items():
        if name in objects:
            lines += object_struct(name, body["properties"], objects)
            continue
        cases = "\n".join(f'    case `{camel(v)}` = "{v}"' for v in body["enum"])
        # Properties of structs need what the structs are: Codable, Hashable, readable back.
        conformances = ", Sendable, Hashable, Codable, AnalyticsValueRepresentable" if objects else ""
        lines.append(f"enum {camel(name, True)}: String{conformances} {{\n{cases}\n}}\n")
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
            if base in objects:
                swift, expr = f"[{swift}]" if is_array else swift, f"{value}.analyticsValue"
                if optional:
                    args.append(f"{value}: {swift}? = nil")
                    entries.append((pname, None, value, expr))
                else:
                    args.append(f"{value}: {swift}")
                    entries.append((pname, expr, None, None))
                continue
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


def object_struct(name, properties, objects):
    """A struct written by hand for an object type: stored properties, a memberwise
    initializer, its AnalyticsValue both ways (by pattern matching) and Codable."""
    fields = []
    for pname, ptype in properties.items():
        text = ptype if isinstance(ptype, str) else ptype["type"]
        optional = text.endswith("?")
        base = text.rstrip("?").strip("[] ")
        is_array = text.rstrip("?").startswith("[")
        swift, case = SCALARS.get(base, (camel(base, True), "string"))
        if base not in SCALARS:
            element = "$0.rawValue" if is_array else f"{camel(pname)}.rawValue"
        else:
            element = "$0" if is_array else camel(pname)
        swift = f"[{swift}]" if is_array else swift
        expr = f".array({camel(pname)}.map {{ .{case}($0{'' if base in SCALARS else '.rawValue'}) }})" if is_array else f".{case}({element})"
        fields.append((pname, camel(pname), swift, optional, expr))
    out = [f"struct {camel(name, True)}: Sendable, Hashable, Codable, AnalyticsValueRepresentable {{"]
    out += [f"    var {v}: {t}{'?' if o else ''}" for _, v, t, o, _ in fields]
    required = [f for f in fields if not f[3]] + [f for f in fields if f[3]]
    args = ", ".join(f"{v}: {t}{'? = nil' if o else ''}" for _, v, t, o, _ in required)
    out.append(f"    init({args}) {{")
    out += [f"        self.{v} = {v}" for _, v, _, _, _ in fields]
    out.append("    }")
    out.append("    var analyticsValue: AnalyticsValue {")
    entries = ", ".join(f'"{p}": {e}' for p, _, _, o, e in fields if not o)
    out.append(f"        var fields: [String: AnalyticsValue] = [{entries or ':'}]")
    out += [f'        if let {v} {{ fields["{p}"] = {e} }}' for p, v, _, o, e in fields if o]
    out.append("        return .object(fields)")
    out.append("    }")
    out.append("    init?(analyticsValue: AnalyticsValue) {")
    out.append("        guard case .object(let fields) = analyticsValue else { return nil }")
    for p, v, t, o, _ in fields:
        if o:
            out.append(f'        if let value = fields["{p}"] {{ guard let converted = {t}(analyticsValue: value) else {{ return nil }}; self.{v} = converted }} else {{ self.{v} = nil }}')
        else:
            out.append(f'        guard let value = fields["{p}"], let {v} = {t}(analyticsValue: value) else {{ return nil }}')
            out.append(f"        self.{v} = {v}")
    out.append("    }")
    out.append("}")
    out.append("")
    return out


if __name__ == "__main__":
    main()
