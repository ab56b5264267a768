// The GPU backend's Nsight Compute check (checks.hpp): apart from checks.cpp,
// whose pure parts the tests link without a GradeContext.
#include <algorithm>
#include <sstream>

#include "checks.hpp"
#include "gpu_lock.hpp"
#include "ncu_check.hpp"
#include "nvcc_check.hpp"
#include "rubric.hpp"

namespace banklab::grader {

Outcome check_ncu_wavefronts(GradeContext& ctx, const std::string& kernel, const std::vector<std::string>& target_args,
                             std::vector<std::string> emulator_args, const std::string& label) {
  // The emulator's prediction of the same launch, priced as nvcc compiled the
  // file where its code can be had (Nsight Compute measures nvcc's code).
  const std::vector<std::string> sass = ctx.nvcc_sass_args();
  emulator_args.insert(emulator_args.end(), sass.begin(), sass.end());
  const RunnerAnswer& emulated = ctx.cpu(emulator_args);
  if (!emulated.ok) return Outcome::skip("no emulator prediction: " + emulated.error);
  if (!emulated.data.contains("runs") || emulated.data["runs"].empty() ||
      !emulated.data["runs"][0].contains("report")) {
    return Outcome::skip("no emulator prediction: the emulator runner gave no report of " + label);
  }
  const nlohmann::json& report = emulated.data["runs"][0]["report"];
  // Loads and stores as the Source page counts them; shared atomics (their own
  // column: op_st leaves them out) with the counter the H200 calibration of
  // atomics measured (tests/data/gpu/h200_shared_atomics_ncu.csv).
  const std::vector<std::string> metrics = {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"};
  std::vector<std::string> target = {ctx.gpu_runner()};
  target.insert(target.end(), target_args.begin(), target_args.end());
  const double limit = std::max(120.0, ctx.time_limit());
  // ncu writes to a file of the grader's: what the kernel prints cannot push
  // the result out of reach, nor forge it.
  // Nsight Compute replays the kernel on the GPU: it takes the GPU's turn too.
  const NcuResult ncu = [&] {
    const GpuLock gpu_turn(gpu_lock_key(), "ncu " + kernel);
    return measure_with_ncu(target, kernel, metrics, limit);
  }();
  if (ncu.kind == NcuResult::Kind::kNotInstalled || ncu.kind == NcuResult::Kind::kNotPermitted)
    return Outcome::skip(ncu.problem);
  if (ncu.kind != NcuResult::Kind::kMeasured) {
    return Outcome::fail(label + ": no Nsight Compute result for " + kernel + ": " + ncu.problem +
                         "\nthe kernel must finish its launch under Nsight Compute (a crash or a hang there loses "
                         "the measurement)");
  }
  const long long measured[3] = {ncu.values.at(metrics[0]), ncu.values.at(metrics[1]),
                                 ncu.values.at(metrics[2])};  // ld, st, atom
  const PredictedWavefronts predicted = predicted_wavefronts(report);
  std::ostringstream out;
  out << label << ": shared load wavefronts, Nsight Compute " << measured[0] << " vs emulator " << predicted.loads;
  bool same = measured[0] == predicted.loads;
  if (predicted.as_compiled) {
    out << "; shared store wavefronts " << measured[1] << " vs " << predicted.stores;
    same = same && measured[1] == predicted.stores && measured[2] == predicted.atomics;
    if (measured[2] != 0 || predicted.atomics != 0)
      out << "; shared atomic wavefronts " << measured[2] << " vs " << predicted.atomics;
    out << " (the emulator priced nvcc's code for sm_" << sass_architecture(ctx.config());
    // The source view counts a shared atomic as a store.
    if (predicted.loads != predicted.written_loads ||
        predicted.stores + predicted.atomics != predicted.written_stores) {
      out << "; as written: " << predicted.written_loads << " loads and " << predicted.written_stores
          << " stores and atomics; the lines nvcc compiles otherwise:" << predicted.changed << ")";
    } else {
      out << ", the same as the source view)";
    }
  } else {
    // The source view counts a shared atomic as a store.
    out << "; shared store and atomic wavefronts " << measured[1] << " + " << measured[2] << " vs " << predicted.stores;
    same = same && measured[1] + measured[2] == predicted.stores;
    out << " (as written: nvcc's code was not priced, "
        << (sass.empty() ? ctx.nvcc_sass_problem() : "the emulator found no " + kernel + " in it")
        << "; where nvcc merges or removes shared accesses, Nsight Compute counts differently)";
  }
  return same ? Outcome::pass(out.str()) : Outcome::fail(out.str());
}

}  // namespace banklab::grader
