#!/usr/bin/env python3
"""Writes a large, valid tracking spec for benchmarks.

    python3 scripts/make-large-spec.py [N] [OUT] [--objects]

N events (default 1000), written to OUT (default: standard output). Each event
has a description and five parameters drawn in rotation from six shapes: a
string with maxLength, an int with min, an optional double, one of the spec's
enum types, a [string] shorthand and a bool. With --objects the spec also
declares ten object types of six properties each, and every event has a list of
one of them. The output depends on N and the flag alone.
The benchmarks read `Benchmarks/Fixtures/large-1000.anna.yml`:

    python3 scripts/make-large-spec.py 1000 Benchmarks/Fixtures/large-1000.anna.yml
"""
import os
import sys

VERBS = ["Viewed", "Added", "Removed", "Shared", "Opened", "Closed", "Selected", "Completed", "Failed", "Refreshed"]
OBJECTS = ["item", "category", "order", "coupon", "profile", "search result", "banner", "message", "review", "video"]

TYPES = {
    "Source": ("Where the user started from.", ["home", "search", "deep link", "push notification", "widget"]),
    "Channel": ("How something was shared or delivered.", ["message", "mail", "copy link", "air-drop", "social"]),
    "Screen": ("The screen an interaction happened on.", ["catalog", "product.detail", "cart", "checkout", "settings", "account_overview"]),
}


def event_name(index, width):
    """`event0001Viewed`: lowerCamelCase, numbered, with a verb in rotation."""
    return f"event{index:0{width}d}{VERBS[(index - 1) % len(VERBS)]}"


def thing(index):
    return OBJECTS[((index - 1) // len(VERBS)) % len(OBJECTS)]


def parameter_lines(index):
    """The five parameters of event `index`: six shapes in rotation, one left out per event."""
    type_names = list(TYPES)
    enum_type = type_names[index % len(type_names)]
    shapes = [
        [
            "      title:",
            "        type: string",
            f"        description: Title of the {thing(index)} as shown to the user.",
            f"        maxLength: {40 + (index % 7) * 10}",
        ] + (["        pii: true"] if index % 5 == 0 else []),
        [
            "      item count: { type: int, min: 0, description: How many items the event concerns. }",
        ] if index % 2 else [
            "      itemCount:",
            "        type: int",
            "        description: How many items the event concerns.",
            "        min: 0",
            f"        max: {1000 * (1 + index % 9)}",
        ],
        [
            "      price:",
            "        type: double?",
            "        description: Price in the user's currency, when there is one.",
        ] if index % 3 else [
            "      price: double?",
        ],
        [
            f"      {enum_type[0].lower() + enum_type[1:]}:",
            f"        type: {enum_type}",
            f"        description: {TYPES[enum_type][0]}",
        ],
        [
            "      tags: [string]",
        ] if index % 2 else [
            "      tags:",
            "        type: \"[string]?\"",
            "        description: Labels attached to it.",
            "        maxLength: 30",
        ],
        [
            "      is_first_time: { type: bool, description: Whether the user does this for the first time. }",
        ],
    ]
    del shapes[index % len(shapes)]
    return [line for shape in shapes for line in shape]


OBJECT_TYPE_COUNT = 10


def object_type_lines():
    """Ten object types: required and optional scalars, an enum, a list of strings."""
    lines = []
    for number in range(OBJECT_TYPE_COUNT):
        lines += [
            f"  Thing{number}:",
            f"    description: Thing {number}, sent as an object.",
            "    properties:",
            "      id: { type: string, maxLength: 64, description: The thing's id. }",
            "      name: string?",
            "      price: { type: double, min: 0 }",
            "      quantity: { type: int, min: 1 }",
            "      source: Source?",
            "      labels: \"[string]?\"",
        ]
    return lines


def make_spec(count, objects=False):
    width = max(4, len(str(count)))
    lines = [
        f"# {count} events made by scripts/make-large-spec.py {count}; do not edit.",
        "anna: 1",
        "namespace: Large",
        "access: internal",
        "",
        "types:",
    ]
    for name, (description, values) in TYPES.items():
        lines += [f"  {name}:", f"    description: {description}", f"    enum: [{', '.join(values)}]"]
    if objects:
        lines += object_type_lines()
    lines += ["", "events:"]
    for index in range(1, count + 1):
        verb = VERBS[(index - 1) % len(VERBS)].lower()
        article = "an" if thing(index)[0] in "aeiou" else "a"
        lines.append(f"  {event_name(index, width)}:")
        lines.append(f"    description: Event {index} of {count}. The user {verb} {article} {thing(index)}.")
        if index % 10 == 0:
            lines.append("    consent: marketing")
        if index % 97 == 0:
            lines.append(f"    deprecated: Use {event_name(index - 1, width)} instead.")
        lines.append("    parameters:")
        lines += parameter_lines(index)
        if objects:
            lines.append(f"      things: \"[Thing{index % OBJECT_TYPE_COUNT}]\"")
    return "\n".join(lines) + "\n"


def main(argv):
    objects = "--objects" in argv
    argv = [argument for argument in argv if argument != "--objects"]
    if len(argv) > 3 or (len(argv) > 1 and not argv[1].isdigit()):
        print(f"usage: {argv[0]} [N] [OUT] [--objects]", file=sys.stderr)
        return 2
    count = int(argv[1]) if len(argv) > 1 else 1000
    text = make_spec(count, objects)
    if len(argv) > 2 and argv[2] != "-":
        os.makedirs(os.path.dirname(argv[2]) or ".", exist_ok=True)
        with open(argv[2], "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
