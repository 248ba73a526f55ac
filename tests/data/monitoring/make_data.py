#!/usr/bin/env python3
"""Writes the monitoring test files of tests/unit/test_monitoring.cpp (run from this directory).

The utilisation patterns are chosen so that the expected figures are exact and stated in the
test; the formats are those the tools write (nvidia-smi --format=csv / csv,nounits, a Prometheus
/api/v1/query_range response for dcgm-exporter metrics, the plain CSV). Power figures follow the
shape of an H100 SXM's draw against utilisation (about 120 W idle to 700 W at the limit).
"""
import json, random

T0 = 1795442400  # 2026-11-23 14:00:00 UTC
def smi_time(t):
    import datetime
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    return d.strftime("%Y/%m/%d %H:%M:%S.") + "%03d" % 0

def power(u):
    return 120.0 + 580.0 * u / 100.0

# Four GPUs, 5 s samples for 10 minutes (120 samples each):
#  GPU 0: 85% constant (healthy band)
#  GPU 1: alternating 20% / 60% (mean 40%, half the time under 30%)
#  GPU 2: idle at 0%
#  GPU 3: 97% for the first 60 samples, 92% for the next 60 (half overload, half 90-95)
def util(gpu, k):
    if gpu == 0: return 85
    if gpu == 1: return 20 if k % 2 == 0 else 60
    if gpu == 2: return 0
    return 97 if k < 60 else 92
MEM = {0: 40536, 1: 20480, 2: 0, 3: 75000}

with open("nvidia-smi-units.csv", "w") as f:
    f.write("timestamp, index, name, utilization.gpu [%], memory.used [MiB], power.draw [W]\n")
    for k in range(120):
        for g in range(4):
            f.write(f"{smi_time(T0 + 5 * k)}, {g}, NVIDIA H100 80GB HBM3, {util(g, k)} %, "
                    f"{MEM[g]} MiB, {power(util(g, k)):.2f} W\n")

# nounits, rows shuffled, a repeated header (two logs concatenated), a 60 s gap in GPU 1's
# samples (k = 40..51 missing), one [N/A] power reading.
rows = []
for k in range(120):
    for g in range(2):
        if g == 1 and 40 <= k < 52:
            continue
        p = "[N/A]" if (g == 0 and k == 7) else f"{power(util(g, k)):.2f}"
        rows.append(f"{smi_time(T0 + 5 * k)}, {g}, {util(g, k)}, {MEM[g]}, {p}")
random.seed(7)
random.shuffle(rows)
header = "timestamp, index, utilization.gpu [%], memory.used [MiB], power.draw [W]"
with open("nvidia-smi-nounits.csv", "w") as f:
    f.write(header + "\n")
    f.write("\n".join(rows[:100]) + "\n")
    f.write(header + "\n")
    f.write("\n".join(rows[100:]) + "\n")

# DCGM via Prometheus: two hosts x one GPU each, 15 s step, 40 points.
#  node-a gpu 0: 50% constant; node-b gpu 0: 10% for 20 points then 90% for 20.
result = []
for host, pattern in (("node-a", lambda i: 50), ("node-b", lambda i: 10 if i < 20 else 90)):
    labels = {"gpu": "0", "UUID": f"GPU-{host}", "device": "nvidia0", "modelName": "NVIDIA H100 80GB HBM3",
              "Hostname": host, "instance": f"{host}:9400", "job": "dcgm-exporter"}
    pts = [T0 + 15 * i for i in range(40)]
    result.append({"metric": {"__name__": "DCGM_FI_DEV_GPU_UTIL", **labels},
                   "values": [[t, str(pattern(i))] for i, t in enumerate(pts)]})
    result.append({"metric": {"__name__": "DCGM_FI_DEV_FB_USED", **labels},
                   "values": [[t, "30000"] for t in pts]})
    result.append({"metric": {"__name__": "DCGM_FI_DEV_POWER_USAGE", **labels},
                   "values": [[t, f"{power(pattern(i)):.3f}"] for i, t in enumerate(pts)]})
with open("dcgm-range.json", "w") as f:
    json.dump({"status": "success", "data": {"resultType": "matrix", "result": result}}, f, indent=1)

# Plain CSV, ISO 8601 times, units in some values, irregular sampling: GPU "a" at 30% for 20 s
# then 90% (samples at 0, 20, 30, 40, 50 s; the last holds for the median interval, 10 s):
# time-weighted mean (30 x 20 + 90 x 40) / 60 = 70%, where a sample average would say 78%.
with open("plain.csv", "w") as f:
    f.write("timestamp,gpu,utilization,memory_used,power\n")
    f.write("2026-11-20T14:00:00Z,a,30,10 GiB,250 W\n")
    f.write("2026-11-20T14:00:20Z,a,90,12 GiB,600 W\n")
    f.write("2026-11-20 14:00:30+00:00,a,90 %,12 GiB,600\n")
    f.write("2026-11-20T14:00:40Z,a,90,12288,600\n")
    f.write("1795442450,b,0,0,60\n")
    f.write("2026-11-20T14:00:50Z,a,90,12288,600\n")

# Plain CSV with a serving engine's throughput (tokens_per_s): two GPUs sampled every 10 s for a
# minute. GPU 0 serves 2000 tokens/s at 80% for 30 s, then 1000 at 40%; GPU 1 1500 at 60%
# throughout. Time-weighted: GPU 0 mean 1500 tokens/s, peak 2000; GPU 1 1500; the fleet's mean
# 3000 and its peak total 3500 (the first 30 s).
with open("serving.csv", "w") as f:
    f.write("timestamp,gpu,utilization,power,tokens_per_s\n")
    for k in range(6):
        t = 1795442400 + 10 * k
        f.write(f"{t},0,{80 if k < 3 else 40},{500 if k < 3 else 300},{2000 if k < 3 else 1000}\n")
        f.write(f"{t},1,60,400,1500\n")

bad = {
    "bad-throughput.csv": "timestamp,gpu,utilization,tokens_per_s\n2026-11-20T14:00:00Z,0,50,12 tok/s\n",
    "two-throughputs.csv": "timestamp,gpu,utilization,tokens_per_s,requests_per_s\n2026-11-20T14:00:00Z,0,50,1,1\n",
    "bad-percent.csv": header + "\n2026/11/20 14:00:00.000, 0, 87 %, 100, 300 W\n2026/11/20 14:00:05.000, 0, abc, 100, 300 W\n",
    "bad-power-unit.csv": header + "\n2026/11/20 14:00:00.000, 0, 87, 100, 300.5 V\n",
    "over-100.csv": "timestamp,gpu,utilization,memory_used,power\n2026-11-20T14:00:00Z,0,130,1,1\n",
    "missing-column.csv": "timestamp, index, memory.used [MiB], power.draw [W]\n2026/11/20 14:00:00.000, 0, 100, 300\n",
    "field-count.csv": header + "\n2026/11/20 14:00:00.000, 0, 87, 100\n",
    "bad-time.csv": header + "\n2026/13/20 14:00:00.000, 0, 87, 100, 300\n",
    "no-header.csv": "2026/11/20 14:00:00.000, 0, 87, 100, 300\n",
    "not-matrix.json": json.dumps({"status": "success", "data": {"resultType": "vector", "result": []}}),
    "bad-value.json": json.dumps({"status": "success", "data": {"resultType": "matrix", "result": [
        {"metric": {"__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0", "Hostname": "n"},
         "values": [[T0, "50"], [T0 + 15, "fifty"]]}]}}),
    "truncated.json": '{"status": "success", "data": {"resultType": "matrix", "result": [',
}
for name, text in bad.items():
    with open("bad/" + name, "w") as f:
        f.write(text)
