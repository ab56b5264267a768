// `kernel<<<grid, block, shared, stream>>>(args...)` for the CPU emulator.
// `banklab run` rewrites each launch of a program as
//   kernel | ::banklab::emu::LaunchConfig(grid, block, shared, stream)
//          | ::banklab::emu::launch_arguments(args...)
// (same line, same file: see common/cli/launch_rewrite.cpp); the launch runs
// at once on the CPU and its report joins the program's report
// (src/session.cpp), printed when the program ends.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "banklab/cuda_graph.hpp"
#include "banklab/cuda_runtime_api.hpp"
#include "banklab/cuda_types.hpp"

namespace banklab::emu {

struct LaunchConfig {
  dim3 grid, block;
  std::size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
  LaunchConfig(dim3 g, dim3 b, std::size_t shared = 0, cudaStream_t s = nullptr)
      : grid(g), block(b), shared_bytes(shared), stream(s) {}
};

namespace detail {
/// Runs invoke(closure) as the kernel at `kernel` over the grid, with the
/// options of the program's run (BANKLAB_RUN in the environment), adds the
/// launch to the program's report and sets CUDA's error state.
void program_launch(const LaunchConfig& config, const void* kernel, void (*invoke)(void*), void* closure);

/// A launch on a stream being captured into a graph (cuda_graph.hpp) is
/// recorded, with its own copy of the closure, and runs at each cudaGraphLaunch.
template <class Closure>
bool captured(const LaunchConfig& config, const void* kernel, void (*invoke)(void*), Closure&& closure) {
  if (config.stream == nullptr || !capturing(config.stream)) return false;
  auto owned = std::make_shared<std::decay_t<Closure>>(std::forward<Closure>(closure));
  capture(config.stream, [config, kernel, invoke, owned] { program_launch(config, kernel, invoke, owned.get()); });
  return true;
}
}  // namespace detail

template <class... Params>
struct PendingLaunch {
  void (*kernel)(Params...);
  LaunchConfig config;
};
template <class... Args>
struct LaunchArguments {
  std::tuple<Args&&...> values;
};
template <class... Args>
LaunchArguments<Args...> launch_arguments(Args&&... args) {
  return {std::forward_as_tuple(std::forward<Args>(args)...)};
}

template <class... Params>
PendingLaunch<Params...> operator|(void (*kernel)(Params...), const LaunchConfig& config) {
  return {kernel, config};
}
/// Whether the host's C++ ABI passes a parameter of class type P by the
/// address of a copy the caller makes (and later destroys): a type with a
/// non-trivial copy or move constructor or destructor (Itanium C++ ABI,
/// "non-trivial for the purposes of calls"). Other types travel as their bytes.
template <class P>
inline constexpr bool kPassedByAddress =
    !std::is_trivially_destructible_v<P> ||
    (std::is_copy_constructible_v<P> && !std::is_trivially_copy_constructible_v<P>) ||
    (std::is_move_constructible_v<P> && !std::is_trivially_move_constructible_v<P>);

/// One CUDA thread's own copy of one kernel parameter: the bytes of the
/// launch's value, as a GPU gives every thread the launch's parameters. No
/// constructor or destructor of it runs on the device (a by-value `Lock`
/// whose destructor frees its memory on the host must not free it when a
/// thread returns).
template <class P, bool = kPassedByAddress<P>>
struct ThreadParameter {
  P value;
  explicit ThreadParameter(const P& v) : value(v) {}
  using Passed = P;
  P passed() const { return value; }
};
template <class P>
struct ThreadParameter<P, true> {
  alignas(P) unsigned char bytes[sizeof(P)];
  explicit ThreadParameter(const P& v) { std::memcpy(static_cast<void*>(bytes), static_cast<const void*>(&v), sizeof(P)); }
  using Passed = P*;  // what the ABI passes for P: the address of the caller's copy
  P* passed() { return reinterpret_cast<P*>(bytes); }
};

/// Calls the kernel as one CUDA thread: with the launch's values, each
/// thread-copied as its bytes. A parameter the ABI passes by address is
/// given as the address of the thread's bytes, through the kernel's address
/// taken as a function of those addresses (the same call at the machine
/// level), so that no copy constructor or destructor runs per thread.
template <class... Params, std::size_t... I>
void call_as_thread(void (*kernel)(Params...), const std::tuple<std::decay_t<Params>...>& values,
                    std::index_sequence<I...>) {
  if constexpr (!(kPassedByAddress<std::decay_t<Params>> || ...)) {
    kernel(std::get<I>(values)...);
  } else {
    std::tuple<ThreadParameter<std::decay_t<Params>>...> copies(std::get<I>(values)...);
    using AsCalled = void (*)(typename ThreadParameter<std::decay_t<Params>>::Passed...);
    reinterpret_cast<AsCalled>(kernel)(std::get<I>(copies).passed()...);
  }
}

template <class... Params, class... Args>
void operator|(const PendingLaunch<Params...>& pending, LaunchArguments<Args...>&& arguments) {
  static_assert(sizeof...(Params) == sizeof...(Args), "kernel launch: wrong number of arguments");
  // The arguments converted to the kernel's parameter types once per launch,
  // on the host, as CUDA passes them (and destroyed there when it ends).
  struct Closure {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> values;
  } closure{pending.kernel, std::apply(
                                [](auto&&... values) {
                                  return std::tuple<std::decay_t<Params>...>(std::forward<decltype(values)>(values)...);
                                },
                                std::move(arguments.values))};
  auto invoke = [](void* raw) {
    auto* c = static_cast<Closure*>(raw);
    call_as_thread(c->kernel, c->values, std::index_sequence_for<Params...>{});
  };
  const void* kernel = reinterpret_cast<const void*>(pending.kernel);
  if (detail::captured(pending.config, kernel, invoke, std::move(closure))) return;
  detail::program_launch(pending.config, kernel, invoke, &closure);
}

/// A launch that names its kernel (`k<<<...>>>(...)`, `ns::k<float><<<...>>>`)
/// also carries a call of the kernel by name (common/cli/launch_rewrite.cpp):
/// only a call by name gets a kernel's default arguments, which a function
/// pointer has lost. It is used for a launch that leaves out arguments.
template <class F>
struct ByName {
  F call;
};
template <class F>
ByName<F> by_name(F call) {
  return {std::move(call)};
}
template <class F, class... Params>
struct NamedLaunch {
  void (*kernel)(Params...);
  LaunchConfig config;
  F call;
};
template <class F, class... Params>
NamedLaunch<F, Params...> operator|(const PendingLaunch<Params...>& pending, ByName<F>&& named) {
  return {pending.kernel, pending.config, std::move(named.call)};
}
template <class F, class... Params, class... Args>
void operator|(NamedLaunch<F, Params...>&& pending, LaunchArguments<Args...>&& arguments) {
  if constexpr (sizeof...(Args) == sizeof...(Params)) {
    PendingLaunch<Params...>{pending.kernel, pending.config} | std::move(arguments);
  } else {
    static_assert(sizeof...(Args) < sizeof...(Params), "kernel launch: more arguments than the kernel has parameters");
    // The arguments given, copied once per launch; each CUDA thread calls the
    // kernel by name with them, and the compiler adds the defaults. (A
    // by-value parameter of a class type is then copied per thread, unlike
    // the launches that give every argument.)
    struct Closure {
      F call;
      std::tuple<std::decay_t<Args>...> values;
    } closure{std::move(pending.call), std::apply(
                                 [](auto&&... values) {
                                   return std::tuple<std::decay_t<Args>...>(std::forward<decltype(values)>(values)...);
                                 },
                                 std::move(arguments.values))};
    auto invoke = [](void* raw) {
      auto* c = static_cast<Closure*>(raw);
      std::apply(c->call, c->values);
    };
    const void* kernel = reinterpret_cast<const void*>(pending.kernel);
    if (detail::captured(pending.config, kernel, invoke, std::move(closure))) return;
    detail::program_launch(pending.config, kernel, invoke, &closure);
  }
}

/// A graph's kernel node (cuda_graph.hpp): the launch of `kernel` with copies
/// of the values args[i] points at, taken now, as CUDA copies a node's
/// arguments when the node is made or its parameters set.
template <class... Params, std::size_t... I>
std::function<void()> bind_node_launch(void (*kernel)(Params...), const LaunchConfig& config, void** args,
                                       std::index_sequence<I...>) {
  auto values = std::make_shared<std::tuple<std::decay_t<Params>...>>(*static_cast<std::decay_t<Params>*>(args[I])...);
  return [kernel, config, values] {
    std::apply([&](auto&... v) { kernel | config | launch_arguments(v...); }, *values);
  };
}
template <class... Params>
KernelRef::KernelRef(void (*kernel)(Params...))
    : address(reinterpret_cast<const void*>(kernel)),
      bind([](const void* k, const LaunchConfig& config, void** args) -> std::function<void()> {
        if (sizeof...(Params) > 0 && args == nullptr) return nullptr;
        return bind_node_launch(reinterpret_cast<void (*)(Params...)>(const_cast<void*>(k)), config, args,
                                std::index_sequence_for<Params...>{});
      }) {}

/// cudaLaunchKernel's arguments: args[i] points at the i-th parameter's value.
template <class... Params, std::size_t... I>
void launch_with_argument_array(void (*kernel)(Params...), const LaunchConfig& config, void** args,
                                std::index_sequence<I...>) {
  kernel | config | launch_arguments(*static_cast<std::decay_t<Params>*>(args[I])...);
}

}  // namespace banklab::emu

// The runtime API's launch calls. `banklab run` drops a `(void*)` cast of
// their kernel argument (common/cli/launch_rewrite.cpp), so that the kernel's
// parameter types are known here. Grid-wide sync is not available (the
// emulator runs blocks one after another): a cooperative launch runs as a
// plain one, and this_grid().sync() does not compile.
template <class... Params>
cudaError_t cudaLaunchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                             std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  if (sizeof...(Params) > 0 && args == nullptr) return cudaErrorInvalidValue;
  ::banklab::emu::launch_with_argument_array(kernel, ::banklab::emu::LaunchConfig(grid, block, shared_bytes, stream),
                                             args, std::index_sequence_for<Params...>{});
  return cudaPeekAtLastError();
}
template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                                        std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  return cudaLaunchKernel(kernel, grid, block, args, shared_bytes, stream);
}
/// A kernel given as `const void*` (a cast `banklab run` could not see through):
/// its parameter types are unknown, so it cannot be called.
cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr);
cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                        std::size_t shared_bytes = 0, cudaStream_t stream = nullptr);
