#!/usr/bin/env python3
"""Writes a large Segment tracking plan (Public API shape) for benchmarks.

    python3 scripts/make-large-plan.py [N] [OUT]

N track events (default 1000) plus identify and group rules, written to OUT
(default: standard output). Each event has a description and six properties:
a string with maxLength, an integer with a minimum, a nullable number, a
string enum, an array of strings and, every other event, an array of product
objects (identical across events, so the import declares one type). The output
depends on N alone. The benchmarks read `Benchmarks/Fixtures/large-plan-1000.json`:

    python3 scripts/make-large-plan.py 1000 Benchmarks/Fixtures/large-plan-1000.json
"""
import json
import os
import sys

VERBS = ["Viewed", "Added", "Removed", "Shared", "Opened", "Closed", "Selected", "Completed", "Failed", "Refreshed"]
PRODUCT = {
    "type": "object",
    "required": ["product_id", "quantity"],
    "properties": {
        "product_id": {"type": "string", "maxLength": 64},
        "name": {"type": "string"},
        "price": {"type": "number", "minimum": 0},
        "quantity": {"type": "integer", "minimum": 1},
        "coupon": {"type": ["string", "null"]},
    },
}


def event(index, width):
    properties = {
        "item_id": {"type": "string", "maxLength": 64, "description": "The item's id."},
        "position": {"type": "integer", "minimum": 0},
        "price": {"type": ["number", "null"]},
        "source": {"type": "string", "enum": ["home", "search", "deep link", "push"]},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}},
    }
    if index % 2 == 0:
        properties["products"] = {"type": "array", "items": PRODUCT}
    return {
        "key": f"Event {index:0{width}d} {VERBS[(index - 1) % len(VERBS)]}",
        "type": "TRACK",
        "version": 1,
        "jsonSchema": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "description": f"Event number {index}.",
            "type": "object",
            "properties": {
                "context": {},
                "traits": {},
                "properties": {"type": "object", "required": ["item_id", "position"], "properties": properties},
            },
        },
    }


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    width = len(str(count))
    rules = [event(index, width) for index in range(1, count + 1)]
    traits = {"type": "object", "properties": {"email": {"type": "string", "maxLength": 254}, "plan": {"type": "string", "enum": ["free", "pro"]}}}
    rules.append({"key": None, "type": "IDENTIFY", "version": 1, "jsonSchema": {"properties": {"traits": traits}}})
    rules.append({"key": None, "type": "GROUP", "version": 1, "jsonSchema": {"properties": {"traits": {"type": "object", "properties": {"name": {"type": "string"}}}}}})
    text = json.dumps({"data": {"rules": rules}}, indent=2) + "\n"
    if len(sys.argv) > 2:
        os.makedirs(os.path.dirname(sys.argv[2]) or ".", exist_ok=True)
        with open(sys.argv[2], "w") as file:
            file.write(text)
    else:
        sys.stdout.write(text)


main()
