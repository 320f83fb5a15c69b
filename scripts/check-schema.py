#!/usr/bin/env python3
"""Validates tracking specs against the JSON Schema, the way editors see them.

    python3 scripts/check-schema.py schema/anna.schema.json SPEC.anna.yml...

Prints one JSON line per spec, in argument order:

    {"file": "catalog.anna.yml", "valid": true, "errors": []}

Specs are read with libyaml (when PyYAML has it, as the generator does) and the
YAML 1.2 core schema, like the generator: `yes`, `no`, `on` and `off` are
strings, `012` is the integer 12, dates stay strings, `<<` merges. A file
that is not UTF-8, not YAML, or not exactly one document is invalid. Duplicate
keys are not reported (the last one wins). Exits 0 whatever the verdicts, 2 on
wrong arguments or an unreadable schema. Needs PyYAML and jsonschema (4.18+).
"""
import json
import math
import re
import sys

import jsonschema
import yaml

# YAML 1.1 resolvers that the 1.2 core schema replaces or drops.
_DROPPED_TAGS = {
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
    # `=` as the "value" key: SafeLoader has no constructor for it, so plain `=` would fail.
    "tag:yaml.org,2002:value",
}


# libyaml's parser when PyYAML has it, as the generator uses libyaml: PyYAML's own
# scanner, for one, ends a plain scalar at `?` in a flow mapping (`{ type: string? }`).
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CoreSchemaLoader(_SafeLoader):
    """SafeLoader with the YAML 1.2 core schema's implicit resolution. Merge keys (`<<`) still work."""


CoreSchemaLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in _DROPPED_TAGS]
    for first, resolvers in _SafeLoader.yaml_implicit_resolvers.items()
}

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

# Order matters: for a scalar, the first matching resolver wins, so ints come before floats.
CoreSchemaLoader.add_implicit_resolver("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""])
CoreSchemaLoader.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOL, list("tTfF"))
CoreSchemaLoader.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
CoreSchemaLoader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789"))


def _construct_bool(loader, node):
    return loader.construct_scalar(node).lower() == "true"


def _construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)  # leading zeros are decimal in YAML 1.2


def _construct_float(loader, node):
    text = loader.construct_scalar(node)
    lowered = text.lower()
    if lowered.endswith(".nan"):
        return math.nan
    if lowered.endswith(".inf"):
        return -math.inf if text.startswith("-") else math.inf
    return float(text)


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:bool", _construct_bool)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)


# The generator's limit. Checked on the event stream before building anything, since
# building a deeply nested document recurses (and libyaml's binding can crash on it).
MAX_DEPTH = 64


def _check_depth(text):
    depth = 0
    for event in yaml.parse(text, Loader=CoreSchemaLoader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError(f"nesting is deeper than {MAX_DEPTH} levels (line {event.start_mark.line + 1})")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def load_spec(path):
    """The single document in `path`, or raises ValueError with a message."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start}") from None
    try:
        _check_depth(text)
        documents = list(yaml.load_all(text, Loader=CoreSchemaLoader))
    except yaml.YAMLError as error:
        raise ValueError(f"not valid YAML: {' '.join(str(error).split())}") from None
    except RecursionError:
        raise ValueError("not valid YAML: nesting too deep") from None
    if len(documents) != 1:
        raise ValueError(f"expected exactly one YAML document, found {len(documents)}")
    return documents[0]


def _location(path):
    """`events.opened.parameters.tags[0]`, or `(root)`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text or "(root)"


def _leaf_errors(error):
    """Replaces an anyOf/oneOf error by the errors of the branch meant for the value's shape.

    A branch whose own top-level `type` rejects the value (a string given to the object
    branch, say) is discarded, and so is one whose `const` or `enum` rejects it; when one
    branch remains, its errors are the useful ones.
    """
    if error.validator in ("anyOf", "oneOf") and error.context:
        branches = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [
            subs for subs in branches.values()
            if not any(sub.validator in ("type", "const", "enum") and not sub.relative_path for sub in subs)
        ]
        if len(fitting) == 1:
            return [leaf for sub in fitting[0] for leaf in _leaf_errors(sub)]
    return [error]


def _message(error):
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "not" and error.validator_value == {} and "description" in schema:
        # A key the schema forbids in this position (min on a string parameter, say).
        return schema["description"]
    if error.validator == "additionalProperties" and error.validator_value is False:
        allowed = sorted(schema.get("properties", {}))
        return f"{error.message}; allowed keys: {', '.join(allowed)}" if allowed else error.message
    if error.validator in ("anyOf", "oneOf") and "description" in schema:
        # No single form fits the value: say which forms there are.
        return f"{error.instance!r} is not valid here. {schema['description']}"
    return error.message


def check(validator, path):
    try:
        spec = load_spec(path)
    except (OSError, ValueError) as error:
        return [str(error)]
    errors = [leaf for error in validator.iter_errors(spec) for leaf in _leaf_errors(error)]
    errors.sort(key=lambda e: ([str(p) for p in e.absolute_path], list(map(str, e.absolute_schema_path))))
    messages = []
    for error in errors:
        line = f"{_location(error.absolute_path)}: {_message(error)}"
        if line not in messages:
            messages.append(line)
    return messages


def _pattern(validator, pattern, instance, schema):
    """`pattern` with ECMA-262's `$`: Python's also matches before a final newline."""
    if validator.is_type(instance, "string"):
        ecma = re.sub(r"(?<!\\)\$$", r"\\Z", pattern)
        if not re.search(ecma, instance):
            yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})


def main(argv):
    if len(argv) < 3:
        print(f"usage: {argv[0]} SCHEMA FILE...", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            schema = json.load(handle)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"{argv[0]}: cannot use schema {argv[1]}: {error}", file=sys.stderr)
        return 2
    validator = Validator(schema)
    for path in argv[2:]:
        errors = check(validator, path)
        print(json.dumps({"file": path, "valid": not errors, "errors": errors}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
