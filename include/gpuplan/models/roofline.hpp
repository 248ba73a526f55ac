// gpuplan/models/roofline.hpp: the serving roofline of one kernel (roofline_assumptions,
// kernel_time, roofline, gemm_time, attention_fraction). It is part of the one kernel-cost layer,
// models/kernels.hpp, which the training step uses too; this header stays for the code that
// includes it by this name.
#pragma once

#include <gpuplan/models/kernels.hpp>
