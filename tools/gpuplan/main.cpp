// tools/gpuplan/main.cpp: the gpuplan command-line tool.
//
//   gpuplan                 the built-in scenario (same as `gpuplan demo`)
//   gpuplan gpus|models     the catalogs
//   gpuplan fit ...         does it fit? per-GPU memory, verdict, advice
//   gpuplan probe           this machine's GPUs
//   gpuplan capacity ...    replicas for a demand at a wait SLO, utilisation, growth
//   gpuplan utilization F   how real GPUs ran (nvidia-smi, DCGM, CSV) against the bands
//   gpuplan cost ...        what a run costs, draws and emits; rent or own
//   gpuplan search ...      the best layouts and GPUs for a training run (exhaustive search)
//
// Exit status: 0 success; 1 `--require-fit` and the plan does not fit in GPU memory (fit, train,
// cost, serve, capacity: the one verdict of plan/fit.hpp); 2 bad input (one line on stderr naming
// the problem), or an output the system would not take (a full disk, > /dev/full: "cannot write
// the output: <reason>"); 3 an internal error (a bug: please report it); 4 `probe` found no
// usable NVIDIA GPU (no driver, no device; with --json a JSON object with "devices": [] and the
// "reason"); 130 `search` stopped by Ctrl-C.
//
// This file is only the entry point: the tool is the library gpuplan_cli_commands (cli.hpp,
// run_tool in app.cpp), which the fuzz targets link too.
#include "cli.hpp"

int main(int argc, char** argv) { return gpuplan::cli::run_tool(argc, argv); }
