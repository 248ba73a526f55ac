# tests/cli/cases_kubernetes.py: `capacity --kubernetes` with a serving plan writes a complete
# manifest (issue 26): a Deployment running the engine (--engine) with the plan's arguments, a
# Service and an autoscaling/v2 HorizontalPodAutoscaler, each valid against the Kubernetes API
# schema: tests/data/kubernetes/schema.json, the strict JSON Schema derived from Kubernetes 1.36's
# OpenAPI spec by tests/data/kubernetes/make_schema.py (every object takes only its own fields, so
# a misspelt one fails). The schema is the check on every machine: no Kubernetes client runs (a
# dry run would need a reachable cluster, and nothing here installs one).
# Exec'd in cli_tests.py's namespace (case, run, ok, bad, check, data, ...).
#
# python3-yaml and python3-jsonschema are installed by ./scripts/check (ensure_debian_packages):
# the cases fail, not skip, without them.

K8S_PLAN = ("capacity", "--rate", "20", "--wait-slo", "1", "--months", "0",
            "--model", "Llama-3.1-70B", "--node", "dgx-h100", "--tp", "8", "--input-len", "1024",
            "--output-len", "256", "--ttft-slo", "1", "--tpot-slo", "0.05")


def k8s_schema():
    with open(data("kubernetes/schema.json")) as f:
        return json.load(f)


def k8s_errors(doc, schema=None):
    """What the Kubernetes API schema finds wrong with one object (empty: valid)."""
    import jsonschema  # python3-jsonschema
    schema = schema or k8s_schema()
    root = {("apps/v1", "Deployment"): "apps/v1 Deployment", ("v1", "Service"): "v1 Service",
            ("autoscaling/v2", "HorizontalPodAutoscaler"):
                "autoscaling/v2 HorizontalPodAutoscaler"}.get(
                    (doc.get("apiVersion"), doc.get("kind")) if isinstance(doc, dict) else None)
    if root is None:
        return [f"not a Deployment, Service or HorizontalPodAutoscaler: {str(doc)[:80]}"]
    one = dict(schema, **schema["roots"][root])
    v = jsonschema.Draft7Validator(one)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(doc)]


def k8s_docs(text):
    import yaml  # python3-yaml
    docs = list(yaml.safe_load_all(text))
    check(len(docs) == 3, f"three documents, got {len(docs)}")
    check([d["kind"] for d in docs] == ["Deployment", "Service", "HorizontalPodAutoscaler"],
          f"Deployment, Service, HPA: {[d.get('kind') for d in docs]}")
    for d in docs:
        errs = k8s_errors(d)
        check(not errs, f"{d['kind']} fails the Kubernetes schema: {errs[:5]}")
    return docs


def k8s_flag(args, flag):
    check(flag in args, f"{flag} among the engine's arguments: {args}")
    return args[args.index(flag) + 1]


@case("kubernetes.manifest_vllm")
def _():
    j = ok_json(*K8S_PLAN)
    text = ok(*K8S_PLAN, "--kubernetes", "llama-70b").out
    dep, svc, hpa = k8s_docs(text)
    pod = dep["spec"]["template"]["spec"]
    c = pod["containers"][0]
    # the catalog's short name is served by its Hugging Face repository id, as vLLM loads it
    check(c["command"] == ["vllm", "serve"] and c["args"][0] == "meta-llama/Llama-3.1-70B",
          f"vllm serve MODEL: {c['command']} {c['args'][:1]}")
    a = c["args"]
    check(k8s_flag(a, "--tensor-parallel-size") == "8", "tp 8")
    check("--pipeline-parallel-size" not in a, "no PP flag at pp 1")
    check(k8s_flag(a, "--max-model-len") == "4096", "inference_config::context's 4096 tokens")
    check(k8s_flag(a, "--gpu-memory-utilization") == "0.9", "vLLM's 0.9")
    check(k8s_flag(a, "--max-num-seqs") == str(j["slots_per_replica"]), "the replica's slots")
    check(dep["spec"]["replicas"] == j["replicas"], "the plan's replicas at the peak")
    check(c["resources"]["limits"]["nvidia.com/gpu"] == 8, "tp x pp GPUs")
    check(c["resources"]["requests"]["cpu"] == "16" and c["resources"]["limits"]["memory"] == "160G",
          f"per-GPU host resources x 8: {c['resources']}")
    shm = [v for v in pod["volumes"] if v["name"] == "shm"][0]["emptyDir"]
    check(shm == {"medium": "Memory", "sizeLimit": "16Gi"}, f"/dev/shm in memory: {shm}")
    check({"name": "shm", "mountPath": "/dev/shm"} in c["volumeMounts"], "mounted at /dev/shm")
    for probe in ("readinessProbe", "livenessProbe"):
        check(c[probe]["httpGet"] == {"path": "/health", "port": 8000}, f"{probe} on /health")
    check(svc["spec"]["selector"] == dep["spec"]["selector"]["matchLabels"], "Service selects pods")
    check(svc["spec"]["ports"][0]["port"] == 8000, "Service port")
    spec = hpa["spec"]
    check(spec["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                     "name": "llama-70b"}, "HPA scales the Deployment")
    check(spec["maxReplicas"] == j["replicas"], "maxReplicas: the peak's replicas")
    text_report = ok(*K8S_PLAN).out
    n = int(num(r"an autoscaler needs (\d+)", text_report))
    check(spec["minReplicas"] == max(1, n), f"minReplicas: the report's 'an autoscaler needs {n}'")
    m = spec["metrics"][0]
    check(m["type"] == "Pods" and m["pods"]["metric"]["name"] == "vllm:num_requests_waiting",
          f"vLLM's queue gauge: {m}")
    want = max(1.0, j["replica"]["rate_req_per_s"] * 1.0)  # Little: rate x the 1 s wait SLO
    got = int(m["pods"]["target"]["averageValue"].rstrip("m")) / 1000
    near(got, want, 0.0005, "target queue per pod = replica rate x wait SLO")
    check("Prometheus Adapter" in text, "the HPA says a Pods metric needs a metrics adapter")


@case("kubernetes.manifest_sglang_trtllm_pp")
def _():
    plan = [*K8S_PLAN]
    plan[plan.index("--tp") + 1] = "4"
    plan += ["--pp", "2"]
    sg = k8s_docs(ok(*plan, "--engine", "sglang", "--kubernetes", "llama-sg").out)
    c = sg[0]["spec"]["template"]["spec"]["containers"][0]
    a = c["args"]
    check(c["command"] == ["python3", "-m", "sglang.launch_server"], f"{c['command']}")
    check(k8s_flag(a, "--model-path") == "meta-llama/Llama-3.1-70B", "--model-path")
    check(k8s_flag(a, "--tp-size") == "4" and k8s_flag(a, "--pp-size") == "2", "tp 4 pp 2")
    check(k8s_flag(a, "--context-length") == "4096", "context length")
    check(k8s_flag(a, "--mem-fraction-static") == "0.85", "SGLang's default at tp 4 (v0.4)")
    check("--max-running-requests" in a and "--enable-metrics" in a, "slots and metrics on")
    check(c["readinessProbe"]["httpGet"]["port"] == 30000, "SGLang's port 30000")
    check(sg[2]["spec"]["metrics"][0]["pods"]["metric"]["name"] == "sglang:num_queue_reqs",
          "SGLang's queue gauge")
    tr = k8s_docs(ok(*plan, "--engine", "trtllm", "--free-gpu-memory-fraction", "0.85",
                     "--kubernetes", "llama-trt", "--image", "my/trt:1").out)
    c = tr[0]["spec"]["template"]["spec"]["containers"][0]
    a = c["args"]
    check(c["command"] == ["trtllm-serve"] and a[0] == "meta-llama/Llama-3.1-70B",
          "trtllm-serve MODEL")
    check(k8s_flag(a, "--tp_size") == "4" and k8s_flag(a, "--pp_size") == "2", "tp 4 pp 2")
    check(k8s_flag(a, "--max_seq_len") == "4096", "max_seq_len")
    check(k8s_flag(a, "--kv_cache_free_gpu_memory_fraction") == "0.85", "the given fraction")
    check("--max_batch_size" in a and c["image"] == "my/trt:1", "batch size; --image kept")
    check(tr[2]["spec"]["metrics"][0]["pods"]["metric"]["name"] == "trtllm_num_requests_waiting",
          "TensorRT-LLM's queue gauge")
    check(tr[0]["spec"]["template"]["metadata"]["annotations"]["prometheus.io/path"]
          == "/prometheus/metrics", "trtllm-serve's Prometheus path")


@case("kubernetes.manifest_mig")
def _():
    plan = ("capacity", "--rate", "2", "--wait-slo", "1", "--months", "0", "--model",
            "llama3.1-8b", "--gpu", "h100", "--mig", "3g.40gb", "--input-len", "512",
            "--output-len", "128", "--ttft-slo", "1", "--tpot-slo", "0.1")
    dep = k8s_docs(ok(*plan, "--kubernetes", "small").out)[0]
    r = dep["spec"]["template"]["spec"]["containers"][0]["resources"]
    check(r["limits"].get("nvidia.com/mig-3g.40gb") == 1 and "nvidia.com/gpu" not in r["limits"],
          f"the MIG resource name, one slice: {r}")


@case("kubernetes.schema_rejects_misspelt_fields")
def _():
    # The schema must fail a broken manifest, or the cases above prove nothing: a misspelt field
    # in each object, a wrong type, and a missing required field, each found.
    import copy
    dep, svc, hpa = k8s_docs(ok(*K8S_PLAN, "--kubernetes", "llama-70b").out)
    schema = k8s_schema()
    broken = []
    d = copy.deepcopy(dep)
    c = d["spec"]["template"]["spec"]["containers"][0]
    c["ports"][0]["containerPorts"] = c["ports"][0].pop("containerPort")
    broken.append(("Deployment containerPorts", d))
    d = copy.deepcopy(dep)
    d["spec"]["template"]["spec"]["volumes"][0]["emptyDir"]["sizelimit"] = "1Gi"
    broken.append(("Deployment emptyDir sizelimit", d))
    d = copy.deepcopy(dep)
    d["spec"]["replicas"] = "3"
    broken.append(("Deployment replicas as a string", d))
    d = copy.deepcopy(dep)
    del d["spec"]["selector"]
    broken.append(("Deployment without selector", d))
    s = copy.deepcopy(svc)
    s["spec"]["selectors"] = s["spec"].pop("selector")
    broken.append(("Service selectors", s))
    h = copy.deepcopy(hpa)
    h["spec"]["minReplica"] = h["spec"].pop("minReplicas")
    broken.append(("HPA minReplica", h))
    h = copy.deepcopy(hpa)
    h["spec"]["metrics"][0]["pods"]["target"]["averagevalue"] = "1"
    broken.append(("HPA averagevalue", h))
    h = copy.deepcopy(hpa)
    del h["spec"]["maxReplicas"]
    broken.append(("HPA without maxReplicas", h))
    for what, doc in broken:
        check(k8s_errors(doc, schema), f"the schema accepts a broken manifest: {what}")
    check(k8s_errors({"apiVersion": "apps/v1", "kind": "Deploymnet"}, schema),
          "an unknown kind is refused")
