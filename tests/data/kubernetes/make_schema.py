#!/usr/bin/env python3
"""Derive tests/data/kubernetes/schema.json from the Kubernetes OpenAPI (Swagger 2.0) spec.

The schema the manifest test (tests/cli/kubernetes_manifest.py) checks `gpuplan capacity
--kubernetes` against: the definitions reachable from apps/v1 Deployment, v1 Service and
autoscaling/v2 HorizontalPodAutoscaler, as JSON Schema (draft 7), made strict as kubeconform's
"-strict" schemas are (openapi2jsonschema --strict): every object that lists its properties takes
no others (additionalProperties: false), so a misspelt field fails. Descriptions and x-kubernetes-*
extensions are dropped (the file is data, not documentation); IntOrString takes an integer or a
string and Quantity a number or a string, as the API server's decoder does.

Source: kubernetes/kubernetes api/openapi-spec/swagger.json of branch release-1.36, as vendored by
kubernetes-client/python (kubernetes/swagger.json.unprocessed, commit
ac0ee5091f0b801911c906558030e2624a26bdf8; that client's scripts/constants.py names
KUBERNETES_BRANCH = "release-1.36").

Usage: make_schema.py SWAGGER.json > schema.json
"""
import json
import sys

ROOTS = {
    "apps/v1 Deployment": "io.k8s.api.apps.v1.Deployment",
    "v1 Service": "io.k8s.api.core.v1.Service",
    "autoscaling/v2 HorizontalPodAutoscaler": "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
}
SOURCE = ("kubernetes/kubernetes api/openapi-spec/swagger.json, branch release-1.36 (Kubernetes "
          "1.36), via kubernetes-client/python kubernetes/swagger.json.unprocessed at commit "
          "ac0ee5091f0b801911c906558030e2624a26bdf8; derived by tests/data/kubernetes/make_schema.py")


def convert(node):
    """One Swagger schema node as strict JSON Schema."""
    if isinstance(node, list):
        return [convert(x) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("format") == "int-or-string":
        return {"type": ["integer", "string"]}
    out = {}
    for key, value in node.items():
        if key in ("description", "default", "example") or key.startswith("x-"):
            continue
        if key == "properties":
            out[key] = {k: convert(v) for k, v in value.items()}
        else:
            out[key] = convert(value)
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def refs(node, found):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref:
            found.add(ref.rsplit("/", 1)[-1])
        for v in node.values():
            refs(v, found)
    elif isinstance(node, list):
        for v in node:
            refs(v, found)


def main():
    spec = json.load(open(sys.argv[1]))
    defs = spec["definitions"]
    keep, todo = set(), list(ROOTS.values())
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        found = set()
        refs(defs[name], found)
        todo.extend(found - keep)
    out_defs = {}
    for name in sorted(keep):
        d = convert(defs[name])
        if name == "io.k8s.apimachinery.pkg.api.resource.Quantity":
            d = {"type": ["string", "number"]}
        out_defs[name] = d
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$comment": "Trimmed, strict JSON Schema of " + ", ".join(ROOTS) + ". Source: " + SOURCE,
        "roots": {k: {"$ref": "#/definitions/" + v} for k, v in ROOTS.items()},
        "definitions": out_defs,
    }
    json.dump(schema, sys.stdout, indent=None, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
