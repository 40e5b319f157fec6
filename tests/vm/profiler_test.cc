// The profiler: rows sorted by total time with means and shares, the text table, the Chrome
// trace JSON, and what a VM records into it.
#include <map>
#include <nlohmann/json.hpp>

#include "tests/vm/vm_test_util.h"
#include "vm/profiler.h"

namespace relax::vm::test {
namespace {

using Clock = Profiler::Clock;

TEST_CASE("rows, table and trace from recorded calls", "[vm][profiler]") {
  Profiler p(/*trace=*/true);
  int32_t conv = p.intern("conv2d", "kernel");
  int32_t relu = p.intern("relu", "kernel");
  int32_t main = p.intern("main", "vm");
  CHECK(p.intern("relu", "kernel") == relu);
  auto t0 = Clock::now();
  auto us = [&](int64_t n) { return t0 + std::chrono::microseconds(n); };
  p.record(main, us(0), us(100));
  p.record(conv, us(10), us(70));
  p.record(relu, us(70), us(75));
  p.record(relu, us(75), us(85));
  p.record_invocation(us(0), us(100));

  auto rows = p.rows();
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].name == "main");
  CHECK(rows[1].name == "conv2d");
  CHECK(rows[2].name == "relu");
  CHECK(rows[2].calls == 2);
  CHECK(rows[2].total_ns == 15000);
  CHECK(rows[2].mean_ns == 7500);
  CHECK(rows[1].share == Approx(0.6));

  CHECK(p.table() ==
        "name    kind    calls      total       mean   share\n"
        "main    vm          1  100.00 us  100.00 us  100.0%\n"
        "conv2d  kernel      1   60.00 us   60.00 us   60.0%\n"
        "relu    kernel      2   15.00 us    7.50 us   15.0%\n"
        "wall time 100.00 us in 1 invocation (vm rows include the time of what they call)\n");

  auto trace = nlohmann::json::parse(p.chrome_trace());
  auto& events = trace["traceEvents"];
  REQUIRE(events.size() == 4);
  for (auto& e : events) {
    CHECK(e["ph"] == "X");
    CHECK(e["pid"] == 1);
    CHECK(e["tid"] == 0);
    CHECK(e.contains("ts"));
  }
  CHECK(events[1]["name"] == "conv2d");
  CHECK(events[1]["cat"] == "kernel");
  CHECK(events[1]["dur"].get<double>() == Approx(60.0));
  CHECK(events[2]["ts"].get<double>() - events[1]["ts"].get<double>() == Approx(60.0));

  p.reset();
  CHECK(p.rows().empty());
  CHECK(format_duration(999) == "999 ns");
  CHECK(format_duration(1.5e9) == "1.50 s");
}

TEST_CASE("a VM records each call of functions, kernels and builtins", "[vm][profiler]") {
  ExecutableBuilder b;
  b.declare_function("main", {"a", "out"});
  b.declare_function("twice", {"a", "out"});
  int64_t add = b.declare_kernel("add");
  b.begin_function("twice");
  b.emit_call(add, {Arg::reg(0), Arg::reg(0), Arg::reg(1)});
  b.emit_call(add, {Arg::reg(1), Arg::reg(0), Arg::reg(1)});
  b.emit_ret(1);
  b.end_function();
  b.begin_function("main");
  int64_t r = b.new_register();
  b.emit_call("twice", {Arg::reg(0), Arg::reg(1)}, r);
  b.emit_call("vm.builtin.copy", {Arg::reg(r)}, r);
  b.emit_ret(r);
  b.end_function();
  auto vm = make_vm(finish(b));
  Profiler p(/*trace=*/true);
  vm->set_profiler(&p);
  Value a(make_tensor({2}, {1, 2})), out(empty_tensor({2}, kFloat32));
  for (int i = 0; i < 3; ++i) REQUIRE(vm->invoke("main", {a, out}).ok());
  CHECK(values(out) == std::vector<float>{3, 6});
  std::map<std::string, Profiler::Row> rows;
  for (auto& row : p.rows()) rows[row.name] = row;
  REQUIRE(rows.size() == 4);
  CHECK(rows["main"].calls == 3);
  CHECK(rows["main"].kind == "vm");
  CHECK(rows["twice"].calls == 3);
  CHECK(rows["add"].calls == 6);
  CHECK(rows["add"].kind == "kernel");
  CHECK(rows["vm.builtin.copy"].kind == "builtin");
  CHECK(rows["main"].total_ns >= rows["twice"].total_ns);
  CHECK(rows["twice"].total_ns >= rows["add"].total_ns);
  CHECK(p.invocations() == 3);
  CHECK(rows["main"].share <= 1.0);
  auto trace = nlohmann::json::parse(p.chrome_trace());
  CHECK(trace["traceEvents"].size() == 3 * 5);

  vm->set_profiler(nullptr);
  REQUIRE(vm->invoke("main", {a, out}).ok());
  CHECK(p.invocations() == 3);
}

}  // namespace
}  // namespace relax::vm::test
