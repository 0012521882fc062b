#!/usr/bin/env python3
"""jsonschema_lite.py - validate a JSON document against a JSON Schema,
for the subset of draft 2020-12 that docs/analyze-schema.json uses.
Stdlib only (no network, no pip).

Usage: jsonschema_lite.py SCHEMA.json DOCUMENT.json
Exit 0 if valid; 1 with the first errors (JSON-pointer paths) if not.

Keywords: type, properties, required, additionalProperties, items, enum,
const, minimum, maximum, minItems, maxProperties, pattern, $ref (local),
if/then/else.  Annotations ($schema, $id, title, description, $defs) are
ignored; any other keyword is refused, so the schema cannot quietly rely
on something this validator does not check.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs"}
KNOWN = ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items", "enum", "const",
                       "minimum", "maximum", "minItems", "maxProperties", "pattern", "$ref", "if", "then",
                       "else"}


def type_ok(value, t):
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "null":
        return value is None
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    raise ValueError("unknown type %r in schema" % t)


def same(a, b):
    # JSON equality: true is not 1, but 1 is 1.0
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


class Validator:
    def __init__(self, root):
        self.root = root

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("only local $ref supported: %r" % ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def errors(self, schema, value, path="", out=None):
        if out is None:
            out = []
        unknown = set(schema) - KNOWN
        if unknown:
            raise ValueError("schema at %s uses unsupported keywords %s" % (path or "/", sorted(unknown)))
        if "$ref" in schema:
            self.errors(self.resolve(schema["$ref"]), value, path, out)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(type_ok(value, t) for t in types):
                out.append("%s: %s is not of type %s" % (path or "/", json.dumps(value)[:60], "|".join(types)))
                return out
        if "const" in schema and not same(value, schema["const"]):
            out.append("%s: %s is not %s" % (path or "/", json.dumps(value)[:60], json.dumps(schema["const"])))
        if "enum" in schema and not any(same(value, e) for e in schema["enum"]):
            out.append("%s: %s is not one of %s" % (path or "/", json.dumps(value)[:60], schema["enum"]))
        if type_ok(value, "number"):
            if "minimum" in schema and value < schema["minimum"]:
                out.append("%s: %s < minimum %s" % (path or "/", value, schema["minimum"]))
            if "maximum" in schema and value > schema["maximum"]:
                out.append("%s: %s > maximum %s" % (path or "/", value, schema["maximum"]))
        if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
            out.append("%s: %r does not match %s" % (path or "/", value, schema["pattern"]))
        if isinstance(value, dict):
            for key in schema.get("required", []):
                if key not in value:
                    out.append("%s: missing required property %r" % (path or "/", key))
            props = schema.get("properties", {})
            for key, v in value.items():
                sub = path + "/" + key.replace("~", "~0").replace("/", "~1")
                if key in props:
                    self.errors(props[key], v, sub, out)
                else:
                    extra = schema.get("additionalProperties", True)
                    if extra is False:
                        out.append("%s: unexpected property %r" % (path or "/", key))
                    elif isinstance(extra, dict):
                        self.errors(extra, v, sub, out)
            if "maxProperties" in schema and len(value) > schema["maxProperties"]:
                out.append("%s: more than %d properties" % (path or "/", schema["maxProperties"]))
        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                out.append("%s: fewer than %d items" % (path or "/", schema["minItems"]))
            if "items" in schema:
                for i, v in enumerate(value):
                    self.errors(schema["items"], v, "%s/%d" % (path, i), out)
        if "if" in schema:
            if not self.errors(schema["if"], value, path, []):
                if "then" in schema:
                    self.errors(schema["then"], value, path, out)
            elif "else" in schema:
                self.errors(schema["else"], value, path, out)
        return out


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    try:
        with open(sys.argv[2]) as f:
            doc = json.load(f)
    except ValueError as e:
        print("%s: not JSON: %s" % (sys.argv[2], e))
        sys.exit(1)
    errs = Validator(schema).errors(schema, doc)
    if errs:
        for e in errs[:20]:
            print("%s: %s" % (sys.argv[2], e))
        if len(errs) > 20:
            print("... %d more" % (len(errs) - 20))
        sys.exit(1)
    print("%s: valid (%s)" % (sys.argv[2], schema.get("title", sys.argv[1])))


if __name__ == "__main__":
    main()
