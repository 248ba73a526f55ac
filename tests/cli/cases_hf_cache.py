# tests/cli/cases_hf_cache.py: `--model org/name` read from the local Hugging Face cache (issue 24),
# with the cache folder chosen as huggingface_hub chooses it (HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE,
# HF_HOME/hub, XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub). Each case builds a fake
# cache in a temporary folder and sets the variables for the one run. Exec'd in cli_tests.py's
# namespace.
import shutil

HF_VARS = ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME")


def hf_env(home, **set_vars):
    """An environment for one run: every cache variable cleared, HOME at `home`, then set_vars."""
    env = {v: "" for v in HF_VARS}
    env["HOME"] = home
    env.update(set_vars)
    return env


def run_env(args, env):
    full_env = {k: v for k, v in os.environ.items() if k not in HF_VARS}
    full_env.update({k: v for k, v in env.items() if v != ""})
    for k in [k for k, v in env.items() if v == ""]:
        full_env.pop(k, None)
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=full_env, timeout=120)
    return Run(args, p.returncode, p.stdout, p.stderr)


def fake_snapshot(cache, repo_id, revision, config_src, ref_main=True):
    """cache/models--org--name/snapshots/<revision>/config.json (a copy of config_src) and, when
    ref_main, refs/main naming it, written without a newline as huggingface_hub writes it."""
    repo = os.path.join(cache, "models--" + repo_id.replace("/", "--"))
    snap = os.path.join(repo, "snapshots", revision)
    os.makedirs(snap, exist_ok=True)
    shutil.copyfile(config_src, os.path.join(snap, "config.json"))
    if ref_main:
        os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
        with open(os.path.join(repo, "refs", "main"), "w") as f:
            f.write(revision)
    return snap


@case("hf_cache.default_home_cache")
def _():
    """No variable set: ~/.cache/huggingface/hub; the model is named by its Hugging Face id and has
    the checkpoint's published count (meta-llama/Llama-3.2-1B safetensors.total 1,235,814,400)."""
    with tempfile.TemporaryDirectory() as home:
        cache = os.path.join(home, ".cache", "huggingface", "hub")
        fake_snapshot(cache, "someorg/Llama-3.2-1B-copy", "a" * 40,
                      data("hf/llama-3.2-1b/config.json"))
        r = run_env(["fit", "--model", "someorg/Llama-3.2-1B-copy", "--json"], hf_env(home))
        check(r.rc == 0, f"exit {r.rc}: {r.err!r}")
        j = r.json()
        check(j["model"]["name"] == "someorg/Llama-3.2-1B-copy", f"name {j['model']['name']!r}")
        check(j["model"]["source"] == "hf-cache", f"source {j['model']['source']!r}")
        check(j["model"]["parameters"] == 1235814400, "published count")


@case("hf_cache.env_precedence")
def _():
    """HF_HUB_CACHE beats HF_HOME, which beats XDG_CACHE_HOME, which beats ~/.cache; each cache
    holds a different model, so the count says which one was read."""
    with tempfile.TemporaryDirectory() as tmp:
        home, hub, hfhome, xdg = (os.path.join(tmp, d) for d in ("home", "hub", "hfhome", "xdg"))
        rid = "acme/model"
        fake_snapshot(os.path.join(home, ".cache", "huggingface", "hub"), rid, "1" * 40,
                      data("hf/gpt2/config.json"))  # 124,439,808
        fake_snapshot(os.path.join(xdg, "huggingface", "hub"), rid, "2" * 40,
                      data("hf/qwen2.5-0.5b/config.json"))  # 494,032,768
        fake_snapshot(os.path.join(hfhome, "hub"), rid, "3" * 40,
                      data("hf/llama-3.2-1b/config.json"))  # 1,235,814,400
        fake_snapshot(hub, rid, "4" * 40, data("hf/qwen2.5-7b/config.json"))  # 7,615,616,512

        def count(**v):
            r = run_env(["fit", "--model", rid, "--json"], hf_env(home, **v))
            check(r.rc == 0, f"{v}: exit {r.rc}: {r.err!r}")
            return r.json()["model"]["parameters"]

        check(count() == 124439808, "default ~/.cache/huggingface/hub")
        check(count(XDG_CACHE_HOME=xdg) == 494032768, "XDG_CACHE_HOME/huggingface/hub")
        check(count(XDG_CACHE_HOME=xdg, HF_HOME=hfhome) == 1235814400, "HF_HOME/hub beats XDG")
        check(count(XDG_CACHE_HOME=xdg, HF_HOME=hfhome, HF_HUB_CACHE=hub) == 7615616512,
              "HF_HUB_CACHE beats HF_HOME")
        check(count(HF_HOME=hfhome, HUGGINGFACE_HUB_CACHE=hub) == 7615616512,
              "the legacy HUGGINGFACE_HUB_CACHE beats HF_HOME")


@case("hf_cache.not_found_says_where")
def _():
    """An id in no cache: exit 2, one line naming the folder looked in and the variable that chose
    it."""
    with tempfile.TemporaryDirectory() as tmp:
        hub = os.path.join(tmp, "hub")
        os.makedirs(hub)
        r = run_env(["fit", "--model", "Qwen/Qwen3-14B"], hf_env(tmp, HF_HUB_CACHE=hub))
        one_error_line(r, r"unknown model 'Qwen/Qwen3-14B': not in the catalog, and no "
                          r"config\.json in the Hugging Face cache \(looked for " +
                       re.escape(os.path.join(hub, "models--Qwen--Qwen3-14B", "snapshots",
                                              "*", "config.json")) + r" \(from HF_HUB_CACHE\)\)")
        r = run_env(["fit", "--model", "Qwen/Qwen3-14B"], hf_env(tmp))
        one_error_line(r, re.escape(os.path.join(tmp, ".cache", "huggingface", "hub")) +
                       r".*\(HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME and XDG_CACHE_HOME "
                       r"unset\)")


@case("hf_cache.catalog_first")
def _():
    """A catalog id never reaches the cache: a cache holding another model under that id is not
    read."""
    with tempfile.TemporaryDirectory() as tmp:
        fake_snapshot(os.path.join(tmp, "hub"), "meta-llama/Llama-3.1-8B", "b" * 40,
                      data("hf/gpt2/config.json"))
        r = run_env(["fit", "--model", "meta-llama/Llama-3.1-8B", "--json"],
                    hf_env(tmp, HF_HUB_CACHE=os.path.join(tmp, "hub")))
        check(r.rc == 0, f"exit {r.rc}: {r.err!r}")
        check(r.json()["model"]["source"] == "catalog" and
              r.json()["model"]["parameters"] == 8030261248, "the catalog's Llama 3.1 8B")


@case("hf_cache.unsupported_config_names_the_snapshot")
def _():
    """A cached config.json of an architecture the readers do not know: exit 2, one line naming
    the snapshot's file and the architecture."""
    with tempfile.TemporaryDirectory() as tmp:
        hub = os.path.join(tmp, "hub")
        snap = fake_snapshot(hub, "bert-org/bert-model", "c" * 40,
                             data("bad/unsupported_arch.json"))
        r = run_env(["fit", "--model", "bert-org/bert-model"], hf_env(tmp, HF_HUB_CACHE=hub))
        # (the CLI elides the middle of a long path: the start and the file name stay)
        one_error_line(r, re.escape(os.path.join(hub, "models--bert-org")) +
                       r".*/config\.json: unsupported architecture 'BertForMaskedLM'")
        check(os.path.isfile(os.path.join(snap, "config.json")), "the snapshot read")


@case("hf_cache.catalog_ids_of_2025_models")
def _():
    """Hugging Face ids of the catalog's newer dense models, Instruct ids included, reach the
    catalog (no cache is read) with the checkpoints' published safetensors totals."""
    with tempfile.TemporaryDirectory() as tmp:
        env = hf_env(tmp, HF_HUB_CACHE=os.path.join(tmp, "empty"))
        for rid, n in [("meta-llama/Meta-Llama-3.1-70B-Instruct", 70553706496),
                       ("meta-llama/Llama-3.1-8B-Instruct", 8030261248),
                       ("meta-llama/Llama-3.2-1B-Instruct", 1235814400),
                       ("meta-llama/Llama-3.2-3B-Instruct", 3212749824),
                       ("meta-llama/Llama-3.3-70B-Instruct", 70553706496),
                       ("Qwen/Qwen2.5-0.5B-Instruct", 494032768),
                       ("Qwen/Qwen2.5-1.5B-Instruct", 1543714304),
                       ("Qwen/Qwen2.5-3B-Instruct", 3085938688),
                       ("Qwen/Qwen2.5-14B-Instruct", 14770033664),
                       ("Qwen/Qwen2.5-32B-Instruct", 32763876352),
                       ("mistralai/Mistral-Small-24B-Instruct-2501", 23572403200),
                       ("microsoft/phi-4", 14659507200)]:
            r = run_env(["fit", "--model", rid, "--json"], env)
            check(r.rc == 0, f"{rid}: exit {r.rc}: {r.err!r}")
            j = r.json()
            check(j["model"]["source"] == "catalog", f"{rid}: source {j['model']['source']!r}")
            check(j["model"]["parameters"] == n, f"{rid}: {j['model']['parameters']} != {n}")
