// Metal and MLX device facts (gatekit/metal.hpp) over system_profiler output recorded on real
// Macs (tests/core/data/metal, see PROVENANCE there), over broken and hostile output, and
// through the process seam with the fake runner.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/metal.hpp"

using namespace gatekit;

namespace {

std::string data(const std::string& name) {
  std::ifstream in(std::string(GATEKIT_TEST_DATA) + "/metal/" + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ProcessResult exited(int code, std::string out, std::string err = "") {
  ProcessResult r;
  r.exit_code = code;
  r.out_bytes = out.size();
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

std::string error_of(std::string_view json) {
  auto facts = decode_metal_facts(json, "system_profiler");
  REQUIRE_FALSE(facts.ok());
  CHECK(facts.error().kind == ErrorKind::could_not_evaluate);
  return facts.error().message;
}

}  // namespace

TEST_CASE("metal facts: an Intel MacBook Pro (16,1) on macOS 11.4 with two Metal GPUs") {
  auto facts = decode_metal_facts(data("intel-macbookpro16-1-macos-11.4.json"), "intel.json");
  REQUIRE(facts.ok());
  REQUIRE(facts->devices.size() == 2);
  const auto& igpu = facts->devices[0];
  CHECK(igpu.name == "Intel UHD Graphics 630");
  CHECK(igpu.vendor == "Intel");
  CHECK(igpu.metal);
  CHECK(igpu.metal_family == "Mac 2");
  CHECK_FALSE(igpu.cores);
  CHECK_FALSE(igpu.unified_memory);
  CHECK(igpu.vram == "1536 MB");
  const auto& dgpu = facts->devices[1];
  CHECK(dgpu.name == "AMD Radeon Pro 5500M");
  CHECK(dgpu.vendor == "AMD");
  CHECK(dgpu.metal);
  CHECK(dgpu.metal_family == "Mac 2");
  CHECK(dgpu.vram == "4 GB");
  CHECK(facts->metal_device_count() == 2);
  CHECK(facts->macos_version == "11.4");
  CHECK(facts->macos_build == "20F71");
  CHECK(facts->chip == "8-Core Intel Core i9");
  CHECK(facts->machine_model == "MacBookPro16,1");
  CHECK(facts->memory == "16 GB");

  const auto inventory = metal_inventory(*facts);
  CHECK(inventory.backend == "metal");
  CHECK(inventory.count == 1);
  REQUIRE(inventory.devices.size() == 1);
  CHECK(inventory.devices[0].name == "Intel UHD Graphics 630");
  CHECK(inventory.driver_version == "macOS 11.4 (20F71)");
  CHECK(inventory.runtime_version == "Mac 2");
  CHECK(inventory.describe() == "1 GPU (metal: Intel UHD Graphics 630, driver macOS 11.4 (20F71), runtime Mac 2)");
}

TEST_CASE("metal facts: an Apple M1 Max (Metal 3, unified memory, 32 GPU cores)") {
  auto facts = decode_metal_facts(data("apple-m1-max-metal3.json"), "m1.json");
  REQUIRE(facts.ok());
  REQUIRE(facts->devices.size() == 1);
  const auto& gpu = facts->devices[0];
  CHECK(gpu.name == "Apple M1");  // sppci_model, as recorded
  CHECK(gpu.vendor == "Apple");
  CHECK(gpu.metal);
  CHECK(gpu.metal_family == "Metal 3");
  REQUIRE(gpu.cores);
  CHECK(*gpu.cores == 32);
  CHECK(gpu.unified_memory);
  CHECK(gpu.vram.empty());
  // Only SPDisplaysDataType was recorded: the rest is unknown, not an error.
  CHECK(facts->macos_version.empty());
  CHECK(facts->chip.empty());

  const auto inventory = metal_inventory(*facts);
  CHECK(inventory.count == 1);
  CHECK(inventory.devices[0].name == "Apple M1 (32-core GPU)");
  CHECK(inventory.runtime_version == "Metal 3");
  CHECK(inventory.driver_version.empty());
}

TEST_CASE("metal facts: a Mac whose display devices have no Metal support counts no GPU") {
  auto facts = decode_metal_facts(data("constructed-intel-no-metal.json"), "no-metal.json");
  REQUIRE(facts.ok());
  REQUIRE(facts->devices.size() == 2);
  CHECK_FALSE(facts->devices[0].metal);
  CHECK_FALSE(facts->devices[1].metal);
  CHECK(facts->metal_device_count() == 0);
  CHECK(facts->first_metal_device() == nullptr);
  const auto inventory = metal_inventory(*facts);
  CHECK(inventory.count == 0);
  CHECK(inventory.backend == "none");
  CHECK(inventory.devices.empty());
  REQUIRE(inventory.probes.size() == 1);
  CHECK(inventory.probes[0].error == "no device supports Metal");

  auto empty = decode_metal_facts(R"({"SPDisplaysDataType" : []})", "system_profiler");
  REQUIRE(empty.ok());
  CHECK(metal_inventory(*empty).count == 0);
  CHECK(metal_inventory(*empty).probes[0].error == "no display device");
}

TEST_CASE("metal facts: a VMware virtual machine on macOS 10.15.3 whose display device has no Metal") {
  // Recorded (see PROVENANCE): the VM's one display device has no sppci_model, no
  // spdisplays_vendor and no Metal member; only its PCI vendor id (0x15ad, VMware).
  auto facts = decode_metal_facts(data("vmware-vm-macos-10.15.3-no-metal.json"), "vmware.json");
  REQUIRE(facts.ok());
  REQUIRE(facts->devices.size() == 1);
  const auto& display = facts->devices[0];
  CHECK(display.name == "spdisplays_display");  // _name, as system_profiler wrote it
  CHECK(display.vendor == "0x15ad");            // spdisplays_vendor-id, no name known for it
  CHECK_FALSE(display.metal);
  CHECK(display.metal_family.empty());
  CHECK_FALSE(display.cores);
  CHECK_FALSE(display.unified_memory);
  CHECK(display.vram == "128 MB");
  CHECK(facts->metal_device_count() == 0);
  CHECK(facts->macos_version == "10.15.3");
  CHECK(facts->macos_build == "19D76");
  CHECK(facts->macos_version_extra.empty());
  CHECK(facts->chip.empty());  // a VM's SPHardwareDataType has neither chip_type nor cpu_type
  CHECK(facts->machine_model == "VMware7,1");
  CHECK(facts->memory == "22.63 GB");

  const auto inventory = metal_inventory(*facts);
  CHECK(inventory.count == 0);
  CHECK(inventory.backend == "none");
  CHECK(inventory.devices.empty());
  CHECK(inventory.driver_version == "macOS 10.15.3 (19D76)");
  CHECK(inventory.describe() == "0 GPUs (metal: no device supports Metal)");
}

TEST_CASE("metal facts: the vendor from spdisplays_vendor, else from the PCI vendor id") {
  struct Case {
    std::string gpu;  // the members of one SPDisplaysDataType entry
    std::string vendor;
    bool unified_memory;
  };
  const std::vector<Case> cases = {
      {R"("spdisplays_vendor" : "sppci_vendor_Apple")", "Apple", true},   // Apple silicon
      {R"("spdisplays_vendor" : "Intel")", "Intel", false},               // macOS 11 Intel UHD
      {R"("spdisplays_vendor" : "sppci_vendor_amd")", "AMD", false},
      {R"("spdisplays_vendor" : "sppci_vendor_intel")", "Intel", false},
      {R"("spdisplays_vendor-id" : "0x8086")", "Intel", false},
      {R"("spdisplays_vendor-id" : "0x1002")", "AMD", false},
      {R"("spdisplays_vendor-id" : "0x10de")", "NVIDIA", false},
      {R"("spdisplays_vendor-id" : "0x106b")", "Apple", true},
      {R"("spdisplays_vendor-id" : "0x15ad")", "0x15ad", false},  // VMware: kept as given
      {R"("spdisplays_vendor" : "sppci_vendor_amd", "spdisplays_vendor-id" : "0x8086")", "AMD", false},
      {R"("spdisplays_vram" : "512 MB")", "", false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.gpu);
    auto facts = decode_metal_facts(R"({"SPDisplaysDataType" : [{"sppci_model" : "GPU", )" + c.gpu + "}]}", "sp");
    REQUIRE(facts.ok());
    CHECK(facts->devices[0].vendor == c.vendor);
    CHECK(facts->devices[0].unified_memory == c.unified_memory);
  }
  CHECK(error_of(R"({"SPDisplaysDataType" : [{"_name" : "a", "spdisplays_vendor-id" : 4318}]})") ==
        "system_profiler: SPDisplaysDataType[0].spdisplays_vendor-id: expected a string, got a number");
}

TEST_CASE("metal facts: every spelling of Metal support system_profiler used") {
  struct Case {
    std::string gpu;  // the members of one SPDisplaysDataType entry
    bool metal;
    std::string family;
  };
  const std::vector<Case> cases = {
      {R"("spdisplays_mtlgpufamilysupport" : "spdisplays_metal4")", true, "Metal 4"},
      {R"("spdisplays_mtlgpufamilysupport" : "spdisplays_metal3")", true, "Metal 3"},
      {R"("spdisplays_metalfamily" : "spdisplays_mtlgpufamilymac2")", true, "Mac 2"},
      {R"("spdisplays_metalfamily" : "spdisplays_mtlgpufamilyapple7")", true, "Apple 7"},
      {R"("spdisplays_metalfamily" : "spdisplays_mtlgpufamilysomethingnew")", true, "mtlgpufamilysomethingnew"},
      {R"("spdisplays_metal" : "spdisplays_supported")", true, ""},
      {R"("spdisplays_metal" : "spdisplays_metalfeaturesetfamily22")", true, "22"},
      {R"("spdisplays_metal" : "Supported, feature set macOS GPUFamily2 v1")", true, "feature set macOS GPUFamily2 v1"},
      {R"("spdisplays_metal" : "spdisplays_notsupported")", false, ""},
      {R"("spdisplays_vram" : "512 MB")", false, ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.gpu);
    auto facts = decode_metal_facts(R"({"SPDisplaysDataType" : [{"sppci_model" : "GPU", )" + c.gpu + "}]}", "sp");
    REQUIRE(facts.ok());
    CHECK(facts->devices[0].metal == c.metal);
    CHECK(facts->devices[0].metal_family == c.family);
  }
}

TEST_CASE("metal facts: macOS versions as SPSoftwareDataType writes them") {
  struct Case {
    std::string os_version;
    std::string version;
    std::string build;
    std::string extra;  // a Rapid Security Response: "(a)"
  };
  const std::vector<Case> cases = {
      {"macOS 11.4 (20F71)", "11.4", "20F71", ""},
      {"macOS 26.0 (25A354)", "26.0", "25A354", ""},
      {"macOS 14.6.1 (23G93)", "14.6.1", "23G93", ""},
      {"macOS 10.15.7 (19H2)", "10.15.7", "19H2", ""},
      {"Mac OS X 10.13.6 (17G66)", "10.13.6", "17G66", ""},
      // Printed by system_profiler on real Macs (PROVENANCE, "os_version values"): a VMware
      // VM, an Apple Virtual Machine, an M1 Pro with a Rapid Security Response installed.
      {"macOS 10.15.3 (19D76)", "10.15.3", "19D76", ""},
      {"macOS 15.3 (24D60)", "15.3", "24D60", ""},
      {"macOS 13.3.1 (a) (22E772610a)", "13.3.1", "22E772610a", "(a)"},
      // Apple's name for a later response of the same kind (not recorded here).
      {"macOS 13.4.1 (c) (22F770820d)", "13.4.1", "22F770820d", "(c)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.os_version);
    auto facts = decode_metal_facts(
        R"({"SPDisplaysDataType" : [], "SPSoftwareDataType" : [{"os_version" : ")" + c.os_version + R"("}]})", "sp");
    REQUIRE(facts.ok());
    CHECK(facts->macos_version == c.version);
    CHECK(facts->macos_build == c.build);
    CHECK(facts->macos_version_extra == c.extra);
    CHECK(metal_inventory(*facts).driver_version ==
          "macOS " + c.version + (c.extra.empty() ? "" : " " + c.extra) + " (" + c.build + ")");
  }

  for (std::string bad : {"macOS 13.3.1 (A) (22E772610a)", "macOS 13.3.1 (a1) (22E772610a)", "macOS 13.3.1 () (22E772610a)",
                          "macOS (a) (22E772610a)", "macOS 13.3.1 (a) (b) (22E772610a)"}) {
    CAPTURE(bad);
    CHECK(error_of(R"({"SPDisplaysDataType" : [], "SPSoftwareDataType" : [{"os_version" : ")" + bad + R"("}]})") ==
          "system_profiler: SPSoftwareDataType[0].os_version: not \"macOS VERSION (BUILD)\": '" + bad + "'");
  }
}

TEST_CASE("metal facts: broken or hostile output is refused, naming the field") {
  struct Case {
    std::string json;
    std::string message;
  };
  const std::string big_name(201, 'x');
  const std::vector<Case> cases = {
      {"", "system_profiler: not JSON: incomplete JSON"},
      {"[]", "system_profiler: expected a JSON object, got an array"},
      {"{}", "system_profiler: SPDisplaysDataType: missing"},
      {R"({"SPDisplaysDataType" : {}})", "system_profiler: SPDisplaysDataType: expected an array, got an object"},
      {R"({"SPDisplaysDataType" : [3]})", "system_profiler: SPDisplaysDataType[0]: expected an object, got a number"},
      {R"({"SPDisplaysDataType" : [{}]})", "system_profiler: SPDisplaysDataType[0]: no sppci_model and no _name"},
      {R"({"SPDisplaysDataType" : [{"sppci_model" : 7}]})",
       "system_profiler: SPDisplaysDataType[0].sppci_model: expected a string, got a number"},
      {R"({"SPDisplaysDataType" : [{"_name" : "a"}, {"sppci_model" : "b", "sppci_cores" : "ten"}]})",
       "system_profiler: SPDisplaysDataType[1].sppci_cores: not a count: 'ten'"},
      {R"({"SPDisplaysDataType" : [{"_name" : "a", "sppci_cores" : "-3"}]})",
       "system_profiler: SPDisplaysDataType[0].sppci_cores: not a count: '-3'"},
      {R"({"SPDisplaysDataType" : [{"_name" : "a", "sppci_cores" : "99999999999"}]})",
       "system_profiler: SPDisplaysDataType[0].sppci_cores: not a count: '99999999999'"},
      {R"({"SPDisplaysDataType" : [{"_name" : "a", "sppci_cores" : 1.5}]})",
       "system_profiler: SPDisplaysDataType[0].sppci_cores: expected a string, got a number"},
      {R"({"SPDisplaysDataType" : [{"_name" : "a\u001b[31m"}]})",
       "system_profiler: SPDisplaysDataType[0]._name: holds a control character"},
      {R"({"SPDisplaysDataType" : [{"_name" : ")" + big_name + R"("}]})",
       "system_profiler: SPDisplaysDataType[0]._name: longer than 200 bytes"},
      {"{\"SPDisplaysDataType\" : [{\"_name\" : \"\xff\"}]}",
       "system_profiler: not JSON: syntax error"},  // Boost.JSON refuses invalid UTF-8 itself
      {R"({"SPDisplaysDataType" : [{"_name" : "a", "spdisplays_mtlgpufamilysupport" : ""}]})",
       "system_profiler: SPDisplaysDataType[0].spdisplays_mtlgpufamilysupport: empty"},
      {R"({"SPDisplaysDataType" : [], "SPHardwareDataType" : {}})",
       "system_profiler: SPHardwareDataType: expected an array, got an object"},
      {R"({"SPDisplaysDataType" : [], "SPHardwareDataType" : [{}, {}]})",
       "system_profiler: SPHardwareDataType: expected one entry, got 2"},
      {R"({"SPDisplaysDataType" : [], "SPHardwareDataType" : [{"chip_type" : ["Apple M4"]}]})",
       "system_profiler: SPHardwareDataType[0].chip_type: expected a string, got an array"},
      {R"j({"SPDisplaysDataType" : [], "SPSoftwareDataType" : [{"os_version" : "Windows 11 (22000)"}]})j",
       "system_profiler: SPSoftwareDataType[0].os_version: not \"macOS VERSION (BUILD)\": 'Windows 11 (22000)'"},
      {R"j({"SPDisplaysDataType" : [], "SPSoftwareDataType" : [{"os_version" : "macOS 15.1 (24B 83)"}]})j",
       "system_profiler: SPSoftwareDataType[0].os_version: not \"macOS VERSION (BUILD)\": 'macOS 15.1 (24B 83)'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.json);
    CHECK(error_of(c.json) == c.message);
  }

  std::string many = R"({"SPDisplaysDataType" : [)";
  for (int i = 0; i < 17; ++i) many += std::string(i ? "," : "") + R"({"_name" : "g"})";
  CHECK(error_of(many + "]}") == "system_profiler: SPDisplaysDataType: more than 16 devices");
  CHECK(error_of(std::string(kMaxMetalReportBytes + 1, ' ')) ==
        "system_profiler: output larger than 4194304 bytes");
  std::string deep = R"({"SPDisplaysDataType" : [{"_name" : "a", "x" : )" + std::string(40, '[') +
                     std::string(40, ']') + "}]}";
  CHECK(error_of(deep).rfind("system_profiler: not JSON: ", 0) == 0);
}

TEST_CASE("metal facts: read through the process seam, with system_profiler's argv") {
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(0, R"j({"SPDisplaysDataType" : [{"sppci_model" : "Apple M4", "spdisplays_vendor" : "sppci_vendor_Apple",
        "sppci_cores" : "10", "spdisplays_mtlgpufamilysupport" : "spdisplays_metal4"}],
      "SPHardwareDataType" : [{"chip_type" : "Apple M4", "machine_model" : "Mac16,10", "physical_memory" : "16 GB"}],
      "SPSoftwareDataType" : [{"os_version" : "macOS 26.0 (25A354)"}]})j");
  });
  auto facts = read_metal_facts(runner, std::chrono::seconds(5));
  REQUIRE(facts.ok());
  REQUIRE(runner.calls.size() == 1);
  CHECK(runner.calls[0].argv == std::vector<std::string>{"/usr/sbin/system_profiler", "-json", "-detailLevel", "mini",
                                                         "SPDisplaysDataType", "SPHardwareDataType", "SPSoftwareDataType"});
  CHECK(runner.calls[0].timeout == std::chrono::seconds(5));
  CHECK(facts->chip == "Apple M4");
  CHECK(facts->macos_version == "26.0");
  CHECK(metal_inventory(*facts).describe() ==
        "1 GPU (metal: Apple M4 (10-core GPU), driver macOS 26.0 (25A354), runtime Metal 4)");

  FakeProcessRunner failing([](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(1, "", "system_profiler: unknown data type\n");
  });
  auto failed = read_metal_facts(failing);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().kind == ErrorKind::could_not_evaluate);
  CHECK(failed.error().message == "system_profiler failed: exit code 1: system_profiler: unknown data type");

  FakeProcessRunner missing([](const ProcessSpec&) -> Result<ProcessResult> {
    return could_not_evaluate("/usr/sbin/system_profiler: No such file or directory");
  });
  auto absent = read_metal_facts(missing);
  REQUIRE_FALSE(absent.ok());
  CHECK(absent.error().message == "cannot run system_profiler: /usr/sbin/system_profiler: No such file or directory");

  FakeProcessRunner garbage([](const ProcessSpec&) -> Result<ProcessResult> { return exited(0, "{\"SPDisplaysDataType\" : 1}"); });
  auto wrong = read_metal_facts(garbage);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message == "system_profiler: SPDisplaysDataType: expected an array, got a number");
}

TEST_CASE("MLX facts: MLX's device_info as text values; absent MLX is no facts, not an error") {
  auto facts = decode_mlx_facts(R"({"architecture": "applegpu_g13s", "max_buffer_length": 57982058496,
      "max_recommended_working_set_size": 51539607552, "memory_size": 68719476736,
      "resource_limit": 499000, "mlx_version": "0.29.1"})", "mlx");
  REQUIRE(facts.ok());
  REQUIRE(facts->has_value());
  const auto& info = facts->value().info;
  CHECK(info.at("architecture") == "applegpu_g13s");
  CHECK(info.at("memory_size") == "68719476736");
  CHECK(info.at("mlx_version") == "0.29.1");
  CHECK(info.size() == 6);

  auto none = decode_mlx_facts("null\n", "mlx");
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());

  struct Case {
    std::string json;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"", "mlx: not JSON: incomplete JSON"},
      {"[1]", "mlx: expected a JSON object, got an array"},
      {R"({"architecture": {"x": 1}})", "mlx: architecture: expected a string, number or boolean, got an object"},
      {R"({"architecture": null})", "mlx: architecture: expected a string, number or boolean, got null"},
      {R"({"": 1})", "mlx: an empty key"},
      {R"({"a\nb": 1})", "mlx: key 'a\\x0ab': holds a control character"},
      {R"({"architecture": "x\u0007"})", "mlx: architecture: holds a control character"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.json);
    auto refused = decode_mlx_facts(c.json, "mlx");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().kind == ErrorKind::could_not_evaluate);
    CHECK(refused.error().message == c.message);
  }
  std::string many = "{";
  for (int i = 0; i < 65; ++i) many += std::string(i ? "," : "") + "\"k" + std::to_string(i) + "\": 1";
  auto too_many = decode_mlx_facts(many + "}", "mlx");
  REQUIRE_FALSE(too_many.ok());
  CHECK(too_many.error().message == "mlx: more than 64 keys");
}

TEST_CASE("MLX facts: the test interpreter is asked through the process seam") {
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(0, "{\"architecture\": \"applegpu_g15s\", \"mlx_version\": \"0.29.1\"}\n");
  });
  auto facts = read_mlx_facts(runner, "/work/venv/bin/python");
  REQUIRE(facts.ok());
  REQUIRE(facts->has_value());
  CHECK(facts->value().info.at("architecture") == "applegpu_g15s");
  REQUIRE(runner.calls.size() == 1);
  CHECK(runner.calls[0].argv ==
        std::vector<std::string>{"/work/venv/bin/python", "-I", "-c", std::string(mlx_facts_script())});

  FakeProcessRunner absent([](const ProcessSpec&) -> Result<ProcessResult> { return exited(0, "null\n"); });
  auto none = read_mlx_facts(absent, "python3");
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());

  FakeProcessRunner broken([](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(1, "", "Traceback (most recent call last):\nRuntimeError: [metal] no Metal device\n");
  });
  auto failed = read_mlx_facts(broken, "python3");
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().kind == ErrorKind::could_not_evaluate);
  CHECK(failed.error().message ==
        "MLX device facts: 'python3' failed: exit code 1: Traceback (most recent call last):\\nRuntimeError: [metal] "
        "no Metal device");
}

TEST_CASE("MLX facts: the script run by a real interpreter") {
  // The CI images' python3 has no MLX: the script must print "null", which is "MLX absent",
  // not an error. Where python3 has MLX (a Mac), the answer must be its facts.
  SystemProcessRunner processes;
  auto probe = processes.run({{"python3", "-I", "-c", "import importlib.util, sys; "
                                                      "sys.exit(0 if importlib.util.find_spec('mlx') is None else 3)"}});
  REQUIRE(probe.ok());
  const bool has_mlx = probe->exit_code == 3;
  auto facts = read_mlx_facts(processes, "python3");
  REQUIRE(facts.ok());
  CHECK(facts->has_value() == has_mlx);  // with MLX (a Mac), its real facts
}

TEST_CASE("host GPUs: macOS asks system_profiler, Linux the HIP and CUDA runtimes") {
  FakeProcessRunner mac([](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(0, data("apple-m1-max-metal3.json"));
  });
  MapEnvironment env({{"GATEKIT_HIP_LIBRARY", "none"}, {"GATEKIT_CUDA_LIBRARY", "none"}});
  auto on_mac = detect_host_gpus(platform::Os::macos, env, mac);
  REQUIRE(on_mac.ok());
  CHECK(on_mac->backend == "metal");
  CHECK(on_mac->count == 1);
  CHECK(mac.calls.size() == 1);

  FakeProcessRunner no_metal([](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(0, data("constructed-intel-no-metal.json"));
  });
  auto without = detect_host_gpus(platform::Os::macos, env, no_metal);
  REQUIRE(without.ok());
  CHECK(without->count == 0);
  CHECK(without->describe() == "0 GPUs (metal: no device supports Metal)");

  FakeProcessRunner unused([](const ProcessSpec&) -> Result<ProcessResult> { return could_not_evaluate("not run"); });
  auto on_linux = detect_host_gpus(platform::Os::gnu_linux, env, unused);
  REQUIRE(on_linux.ok());
  CHECK(on_linux->count == 0);
  CHECK(on_linux->backend == "none");
  CHECK(unused.calls.empty());
}
