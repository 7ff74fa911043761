// rune-plan: prints what the tuning models choose, for a named device or the one present.
//
//   rune-plan scan --device gtx780ti|rtx2080ti|h100|current --types i32[,i64,...] [--model thesis|rune]
//   rune-plan hist --device rtx2080ti|h100|current --N <n> --H <bins> --RF <rf>
//                  --class hdw|cas|xcg --elem-bytes <b>
//
// scan prints a line ending in `m=<items per thread>` and a line with the terms behind it.
// `--model thesis` is the thesis' eq. 4 (scan_items_model.hpp); the default, `rune`, is the
// per-architecture table the kernels use (scan_policy_sm90 in policies.hpp, for a plain
// scan(op, ne, xs) of one array) where one exists, and the thesis' model elsewhere.
// hist prints `shared M=<M> S=<S>`, `global M=<M> S=<S>`, `run=shared|global|partitioned (...)`
// and `partitioned P=<P> H_chk=<bins>` (hist_model.hpp). Bad arguments: one line naming the
// problem and the usage, exit status 2.
// `--device current` reads the device's limits through the CUDA runtime when rune-plan was
// built with it (RUNE_PLAN_CUDA_RUNTIME), and fails with exit status 1 otherwise.
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "by_name.hpp"
#include "hist_model.hpp"
#include "policies.hpp"
#include "scan_items_model.hpp"

#if defined(RUNE_PLAN_CUDA_RUNTIME)
#include <cuda_runtime.h>
#endif

namespace {

using namespace rune::kernels::tuning;

constexpr const char* usage =
    "usage: rune-plan scan --device gtx780ti|rtx2080ti|h100|current --types i32[,i64,...] [--model thesis|rune]"
    " | rune-plan hist --device rtx2080ti|h100|current --N <n> --H <bins> --RF <rf> --class hdw|cas|xcg"
    " --elem-bytes <b> [--loads 1|0]";

// A usage error: reported on one line with the usage, exit status 2.
struct bad_arguments {
  std::string what;
};
// The environment cannot answer (no CUDA runtime, no device): exit status 1.
struct unavailable {
  std::string what;
};

// --key value or --key=value; every key at most once.
std::map<std::string, std::string> parse_options(const std::vector<std::string>& args,
                                                 const std::vector<std::string_view>& known) {
  std::map<std::string, std::string> opts;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) throw bad_arguments{"unexpected argument '" + a + "'"};
    std::string key = a.substr(2), value;
    const auto eq = key.find('=');
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    } else {
      if (i + 1 >= args.size()) throw bad_arguments{"--" + key + " needs a value"};
      value = args[++i];
    }
    bool is_known = false;
    for (std::string_view k : known) is_known = is_known || k == key;
    if (!is_known) throw bad_arguments{"unknown option --" + key};
    if (opts.count(key)) throw bad_arguments{"--" + key + " given twice"};
    if (value.empty()) throw bad_arguments{"--" + key + " needs a value"};
    opts[key] = value;
  }
  return opts;
}

const std::string& required(const std::map<std::string, std::string>& opts, const std::string& key) {
  const auto it = opts.find(key);
  if (it == opts.end()) throw bad_arguments{"missing --" + key};
  return it->second;
}

// A positive whole number, written as digits or in scientific notation that is exact (5e7).
std::int64_t parse_count(const std::string& key, const std::string& text, std::int64_t low, std::int64_t high) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || p != end) {
    double d = 0;
    auto [q, ec2] = std::from_chars(text.data(), end, d);
    if (ec2 != std::errc{} || q != end || !(d >= static_cast<double>(low) && d <= static_cast<double>(high)) ||
        d != std::floor(d))
      throw bad_arguments{"--" + key + " must be a whole number from " + std::to_string(low) + " to " +
                          std::to_string(high) + ", not '" + text + "'"};
    v = static_cast<std::int64_t>(d);
  }
  if (v < low || v > high)
    throw bad_arguments{"--" + key + " must be a whole number from " + std::to_string(low) + " to " +
                        std::to_string(high) + ", not '" + text + "'"};
  return v;
}

double parse_real(const std::string& key, const std::string& text, double low, double high) {
  double d = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, d);
  if (ec != std::errc{} || p != end || !(d >= low && d <= high)) {
    std::ostringstream s;
    s << "--" << key << " must be a number from " << low << " to " << high << ", not '" << text << "'";
    throw bad_arguments{s.str()};
  }
  return d;
}

// ---- the current device (CUDA runtime) -------------------------------------------------------

struct current_limits {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  long long shared_per_block_optin = 0, registers_per_block = 0, threads_per_block = 0;
  long long l2_bytes = 0, sm_count = 0, threads_per_sm = 0;
};

current_limits read_current_device() {
#if defined(RUNE_PLAN_CUDA_RUNTIME)
  auto check = [](cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw unavailable{std::string(what) + " failed: " + cudaGetErrorString(e)};
  };
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (count == 0) throw unavailable{"--device current: no CUDA device is visible"};
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  current_limits c;
  c.name = prop.name;
  c.cc_major = prop.major;
  c.cc_minor = prop.minor;
  c.shared_per_block_optin = static_cast<long long>(prop.sharedMemPerBlockOptin);
  c.registers_per_block = prop.regsPerBlock;
  c.threads_per_block = prop.maxThreadsPerBlock;
  c.l2_bytes = prop.l2CacheSize;
  c.sm_count = prop.multiProcessorCount;
  c.threads_per_sm = prop.maxThreadsPerMultiProcessor;
  return c;
#else
  throw unavailable{
      "--device current needs the CUDA runtime, and this rune-plan was built without it (configure with "
      "RUNE_ENABLE_CUDA=ON and a CUDA toolkit); name a device instead"};
#endif
}

std::string describe(const current_limits& c) {
  std::ostringstream s;
  s << "current device: " << c.name << " (sm_" << c.cc_major << c.cc_minor << "), " << c.sm_count << " SMs x "
    << c.threads_per_sm << " threads, " << c.shared_per_block_optin << " B opt-in shared memory per block, "
    << c.l2_bytes << " B L2, " << c.registers_per_block << " registers and " << c.threads_per_block
    << " threads per block";
  return s.str();
}

// ---- scan ---------------------------------------------------------------------------------------

struct field_type {
  std::string_view name;
  int bytes;
};
constexpr field_type field_types[] = {{"i8", 1},  {"i16", 2}, {"i32", 4}, {"i64", 8}, {"u8", 1},  {"u16", 2},
                                      {"u32", 4}, {"u64", 8}, {"f16", 2}, {"f32", 4}, {"f64", 8}, {"bool", 1}};

std::vector<int> parse_types(const std::string& text) {
  std::vector<int> sizes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    int bytes = 0;
    for (const field_type& t : field_types)
      if (t.name == name) bytes = t.bytes;
    if (bytes == 0)
      throw bad_arguments{"unknown type '" + name + "' in --types (known: i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 bool)"};
    sizes.push_back(bytes);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

// sizeof of a struct with these fields in this order (each aligned to its size, as primitive
// fields are on the targets rune builds for).
std::size_t struct_bytes(const std::vector<int>& sizes) {
  std::size_t offset = 0, align = 1;
  for (int s : sizes) {
    const auto a = static_cast<std::size_t>(s);
    offset = (offset + a - 1) / a * a + a;
    align = align < a ? a : align;
  }
  return (offset + align - 1) / align * align;
}

// The measured sm_90 table for `scan(op, ne, xs)` of one array: f loads one element, g loads
// nothing (it stores the scanned value), exactly as scan_policy_sm90::items_for sees them in the
// kernels. Instantiated once per element size so the policy itself decides, not a copy of it.
constexpr std::size_t rune_table_max_bytes = 256;
template <std::size_t Bytes> struct element_of {
  unsigned char bytes[Bytes];
};
struct nothing_loaded {};
template <class T> struct f_loads {
  using loaded = T;
};
struct g_loads_nothing {
  using loaded = nothing_loaded;
};
template <class Policy, std::size_t... I> constexpr auto sm90_items_table(std::index_sequence<I...>) {
  // Entry i is for an element of i + 1 bytes.
  return std::array<int, sizeof...(I)>{
      Policy::template items_for<element_of<I + 1>, f_loads<element_of<I + 1>>, g_loads_nothing>()...};
}
constexpr auto sm90_items =
    sm90_items_table<rune::kernels::scan_policy_sm90>(std::make_index_sequence<rune_table_max_bytes>{});
// The short tiles of inputs of few tiles (Note [Few-tile scans]), where the row has them.
constexpr auto sm90_few_tile_items =
    sm90_items_table<rune::kernels::scan_policy_sm90::few_tiles>(std::make_index_sequence<rune_table_max_bytes>{});

int run_scan(const std::vector<std::string>& args) {
  const auto opts = parse_options(args, {"device", "types", "model"});
  const std::string& device = required(opts, "device");
  const std::vector<int> sizes = parse_types(required(opts, "types"));
  const std::string model = opts.count("model") ? opts.at("model") : "rune";
  if (model != "thesis" && model != "rune")
    throw bad_arguments{"unknown --model '" + model + "' (expected thesis or rune)"};

  std::optional<scan_device> dev;
  bool sm90 = false;
  std::string context;
  if (device == "current") {
    const current_limits c = read_current_device();
    static std::string name;
    name = c.name;
    dev = thesis_limits(name, c.shared_per_block_optin, c.registers_per_block, c.threads_per_block);
    sm90 = c.cc_major == 9;
    context = describe(c);
  } else {
    dev = find_scan_device(device);
    if (!dev) throw bad_arguments{"unknown --device '" + device + "' for scan (expected gtx780ti, rtx2080ti, h100 or current)"};
    sm90 = device == "h100";
  }

  if (!context.empty()) std::printf("%s\n", context.c_str());
  const std::string types = required(opts, "types");
  if (model == "rune" && sm90) {
    using policy = rune::kernels::scan_policy_sm90;
    const std::size_t bytes = struct_bytes(sizes);
    if (bytes > rune_table_max_bytes)
      throw bad_arguments{"--types: the rune model covers elements up to " + std::to_string(rune_table_max_bytes) +
                          " bytes; use --model thesis"};
    const int m = sm90_items[bytes - 1];
    std::printf("scan device=%s model=rune types=%s m=%d\n", device.c_str(), types.c_str(), m);
    const policy::row row = policy::row_for(bytes, false);  // g stores the scanned value, reading nothing
    std::printf("  scan_policy_sm90 (measured on the H100): items = min(%d bytes per thread / %zu bytes loaded per "
                "item, %d, %d tile bytes / (%d threads x %zu-byte element)), at least 1; %d blocks per SM%s; for "
                "scan(op, ne, xs) of one array, segmented or not\n",
                row.bytes_per_thread, bytes, row.max_items, row.tile_bytes, policy::block_threads, bytes,
                row.min_blocks_per_sm, row.prefetch_l2 ? "; each tile prefetched into L2" : "");
    if (policy::has_few_tile_row(bytes, false)) {  // Note [Few-tile scans]
      std::printf("  inputs of fewer tiles than the device holds blocks at once: short tiles of %d items on %d "
                  "blocks per SM\n",
                  sm90_few_tile_items[bytes - 1], policy::few_tiles::row_for(bytes, false).min_blocks_per_sm);
    }
    return 0;
  }
  const scan_items_terms t = scan_items_thesis_terms(sizes, *dev);
  std::printf("scan device=%s model=thesis types=%s m=%d\n", device.c_str(), types.c_str(), t.m);
  if (model == "rune")
    std::printf("  (no measured table for this device: rune's kernels are tuned for sm_90 only; this is the "
                "thesis' eq. 4)\n");
  std::printf("  eq. 4: m = max(1, min(mem_items %d, reg_items %d)); mem_items = floor(max(k_mem %d, sum_bytes %d) "
              "/ max_bytes %d); reg_items = floor((k_reg %d - 1 - sum_words %d) / (2 * sum_words + 3))\n",
              t.mem_items, t.reg_items, dev->k_mem, t.sum_bytes, t.max_bytes, dev->k_reg, t.sum_words);
  return 0;
}

// ---- hist ---------------------------------------------------------------------------------------

int run_hist(const std::vector<std::string>& args) {
  const auto opts = parse_options(args, {"device", "N", "H", "RF", "class", "elem-bytes", "loads"});
  const std::string& device = required(opts, "device");
  hist_problem p{};
  p.n = parse_count("N", required(opts, "N"), 1, std::int64_t(1) << 62);
  p.bins = parse_count("H", required(opts, "H"), 1, std::int64_t(1) << 62);
  p.race_factor = parse_real("RF", required(opts, "RF"), 1, 1e12);
  const std::string& cls = required(opts, "class");
  const auto c = find_atomic_class(cls);
  if (!c) throw bad_arguments{"unknown --class '" + cls + "' (expected hdw, cas or xcg)"};
  p.cls = *c;
  p.elem_bytes = parse_count("elem-bytes", required(opts, "elem-bytes"), 1, std::int64_t(1) << 30);
  // 0: a body that computes its elements from the index (Note [Passes and partitions that cannot pay]).
  if (opts.count("loads")) {
    const std::string& loads = opts.at("loads");
    if (loads != "0" && loads != "1") throw bad_arguments{"--loads must be 1 or 0, not '" + loads + "'"};
    p.loads = loads == "1";
  }

  std::optional<hist_device> dev;
  if (device == "current") {
    const current_limits cur = read_current_device();
    static std::string name;
    name = cur.name;
    const hist_tuning_row row = hist_tuning_for(cur.cc_major);  // Note [Tuned and generic rows]
    dev = hist_device{name,
                      static_cast<double>(cur.shared_per_block_optin),
                      static_cast<double>(cur.l2_bytes),
                      cur.sm_count * cur.threads_per_sm,
                      cur.threads_per_block,
                      hist_h100.l2_line_bytes,
                      row.constants};
    std::printf("%s\nconstants: the %.*s row\n", describe(cur).c_str(), static_cast<int>(row.name.size()),
                row.name.data());
  } else {
    dev = find_hist_device(device);
    if (!dev) throw bad_arguments{"unknown --device '" + device + "' for hist (expected rtx2080ti, h100 or current)"};
  }

  const hist_plan plan = hist_model(p, *dev);
  std::printf("hist device=%s N=%lld H=%lld RF=%g class=%s elem-bytes=%lld loads=%d\n", device.c_str(),
              static_cast<long long>(p.n), static_cast<long long>(p.bins), p.race_factor, cls.c_str(),
              static_cast<long long>(p.elem_bytes), p.loads ? 1 : 0);
  std::printf("shared M=%lld S=%lld\n", static_cast<long long>(plan.shared.M), static_cast<long long>(plan.shared.S));
  std::printf("global M=%lld S=%lld\n", static_cast<long long>(plan.global.M), static_cast<long long>(plan.global.S));
  const long long limit = static_cast<long long>(dev->tuning.max_shared_passes[p.cls]);
  if (!plan.shared_fits)
    std::printf("run=global (one %lld-byte bin does not fit in %.0f bytes of shared memory)\n",
                static_cast<long long>(hist_bin_bytes(p, dev->tuning)), dev->shared_bytes);
  else if (plan.run == hist_memory::partitioned)
    std::printf("run=partitioned (shared S=%lld > %lld for %s; P=%lld <= %lld partitions)\n",
                static_cast<long long>(plan.shared.S), limit, cls.c_str(), static_cast<long long>(plan.partitioned.S),
                static_cast<long long>(dev->tuning.max_partitions[p.cls]));
  else if (plan.run == hist_memory::global && computed_hdw(p) && plan.shared.S > 1)
    std::printf("run=global (shared S=%lld, but the body computes its elements: no passes or partitions redo them)\n",
                static_cast<long long>(plan.shared.S));
  else if (plan.run == hist_memory::global && plan.shared.S <= limit)
    std::printf("run=global (shared S=%lld: too few updates per bin and block for more than one pass)\n",
                static_cast<long long>(plan.shared.S));
  else
    std::printf("run=%s (shared S=%lld %s %lld for %s)\n", plan.run == hist_memory::shared ? "shared" : "global",
                static_cast<long long>(plan.shared.S), plan.run == hist_memory::shared ? "<=" : ">", limit,
                cls.c_str());
  std::printf("partitioned P=%lld H_chk=%lld\n", static_cast<long long>(plan.partitioned.S),
              static_cast<long long>(plan.partitioned.H_chk));
  std::printf("  shared: H_chk=%lld C=%g%s; global: H_chk=%lld C=%g\n", static_cast<long long>(plan.shared.H_chk),
              plan.shared.C, plan.shared.per_warp ? " (a copy per warp)" : "", static_cast<long long>(plan.global.H_chk),
              plan.global.C);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) throw bad_arguments{"no command (expected scan or hist)"};
    const std::string cmd = args.front();
    args.erase(args.begin());
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      std::printf("%s\n", usage);
      return 0;
    }
    if (cmd == "scan") return run_scan(args);
    if (cmd == "hist") return run_hist(args);
    throw bad_arguments{"unknown command '" + cmd + "' (expected scan or hist)"};
  } catch (const bad_arguments& e) {
    std::fprintf(stderr, "rune-plan: %s; %s\n", e.what.c_str(), usage);
    return 2;
  } catch (const unavailable& e) {
    std::fprintf(stderr, "rune-plan: %s\n", e.what.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rune-plan: %s\n", e.what());
    return 1;
  }
}
