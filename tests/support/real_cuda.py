"""The CUDA driver read directly through ctypes, as the oracle of the real-GPU tests
(tests/smoke-runner/test_smokes_on_a_real_gpu.py, tests/gpu-gate/test_gate_on_a_real_gpu.py). It shares no code
with gatekit's probe: what gatekit reports is compared with what the driver tells this file.

As a program it is also the tests' GPU workload (a smoke, a gate test):
  real_cuda.py facts              JSON: count, names, UUIDs and driver version this process sees
  real_cuda.py work --expect N    allocates 64 MiB on each visible device, fills it, copies it
                                  back and checks every byte; exit 1 unless exactly N devices
                                  are visible
  real_cuda.py bad-device         asks the driver for a device that does not exist; exit 1
  real_cuda.py escape PIDFILE     leaves behind a process of its own session (setsid) that holds
                                  64 MiB on the first device until it is killed, writes its pid
                                  to PIDFILE once it holds them, and exits 0
  real_cuda.py spin SECONDS       runs a GPU kernel that spins for SECONDS (a hung kernel, bounded
                                  so that it ends by itself should nothing kill it)
The driver reads CUDA_VISIBLE_DEVICES when it starts, so each question runs in a process of
its own (`facts(env)`)."""
import ctypes
import json
import os
import subprocess
import sys
import time

CUDA_SUCCESS = 0
CUDA_ERROR_NO_DEVICE = 100


def load():
    """The driver library, or None where there is none (then the tests skip, or fail where
    GATEKIT_REQUIRE_GPU=1: required())."""
    for name in ("libcuda.so.1", "libcuda.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


class Driver:
    def __init__(self, lib):
        self.lib = lib

    def call(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc != CUDA_SUCCESS:
            raise RuntimeError(f"{name} failed with CUresult {rc}")

    def init(self):
        """The visible device count (0 when cuInit says there is none)."""
        rc = self.lib.cuInit(0)
        if rc == CUDA_ERROR_NO_DEVICE:
            return 0
        if rc != CUDA_SUCCESS:
            raise RuntimeError(f"cuInit failed with CUresult {rc}")
        n = ctypes.c_int()
        self.call("cuDeviceGetCount", ctypes.byref(n))
        return n.value

    def device(self, ordinal):
        d = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(d), ordinal)
        return d

    def name(self, device):
        buf = ctypes.create_string_buffer(256)
        self.call("cuDeviceGetName", buf, 255, device)
        return buf.value.decode("utf-8", "replace")

    def uuid(self, device):
        raw = (ctypes.c_ubyte * 16)()
        self.call("cuDeviceGetUuid", raw, device)
        h = bytes(raw).hex()
        return f"GPU-{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"

    def driver_version(self):
        v = ctypes.c_int()
        self.call("cuDriverGetVersion", ctypes.byref(v))
        return f"{v.value // 1000}.{(v.value % 1000) // 10}"


def facts_here():
    driver = Driver(load())
    count = driver.init()
    devices = [driver.device(i) for i in range(count)]
    return {"count": count, "names": [driver.name(d) for d in devices],
            "uuids": [driver.uuid(d) for d in devices], "driver": driver.driver_version()}


def facts(env=None):
    """facts_here() in a fresh process with `env` (the driver reads the visibility variables
    once, at cuInit)."""
    done = subprocess.run([sys.executable, __file__, "facts"], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def host():
    """(facts, "") on a machine whose CUDA driver sees a device, else (None, why not)."""
    if load() is None:
        return None, "no CUDA driver (libcuda.so.1) on this machine"
    seen = facts(dict(os.environ))
    return (seen, "") if seen["count"] > 0 else (None, "the CUDA driver sees no device")


def required():
    """GATEKIT_REQUIRE_GPU=1: this machine has a GPU, so tests that cannot reach its driver
    fail instead of skipping (a suite skipped whole would read as green)."""
    return os.environ.get("GATEKIT_REQUIRE_GPU") == "1"


def skip_or_fail(host_facts, why_not):
    """What each real-GPU test file applies to its tests: the mark (skipped where the driver
    sees no device, unless required()) and the check an autouse fixture runs (fails then)."""
    import pytest
    mark = pytest.mark.skipif(host_facts is None and not required(), reason=why_not)

    def check():
        if host_facts is None:
            pytest.fail(f"GATEKIT_REQUIRE_GPU=1, but {why_not}")
    return mark, check


def works_in_a_fresh_process(expect, env=None):
    """Whether a new process sees `expect` devices and writes and reads back 64 MiB on each
    (`work`): the GPU serves the next job. Its output is printed."""
    done = subprocess.run([sys.executable, __file__, "work", "--expect", str(expect)], env=env, capture_output=True,
                          text=True)
    print(done.stdout, done.stderr)
    return done.returncode == 0


def work(expect):
    driver = Driver(load())
    count = driver.init()
    print(f"visible devices: {count}; CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', '<unset>')}")
    if count != expect:
        print(f"expected {expect} visible devices")
        return 1
    size = 64 << 20
    for i in range(count):
        device = driver.device(i)
        context = ctypes.c_void_p()
        driver.call("cuDevicePrimaryCtxRetain", ctypes.byref(context), device)
        driver.call("cuCtxSetCurrent", context)
        memory = ctypes.c_uint64()
        driver.call("cuMemAlloc_v2", ctypes.byref(memory), ctypes.c_size_t(size))
        driver.call("cuMemsetD8_v2", memory, ctypes.c_ubyte(0x5A), ctypes.c_size_t(size))
        back = ctypes.create_string_buffer(size)
        driver.call("cuMemcpyDtoH_v2", back, memory, ctypes.c_size_t(size))
        driver.call("cuMemFree_v2", memory)
        driver.call("cuDevicePrimaryCtxRelease_v2", device)
        if back.raw != b"\x5a" * size:
            print(f"device {i}: the bytes copied back differ from those written")
            return 1
        print(f"device {i} ({driver.name(device)}, {driver.uuid(device)}): 64 MiB written and read back")
    return 0


def bad_device():
    driver = Driver(load())
    count = driver.init()
    try:
        driver.device(count + 7)
    except RuntimeError as e:
        print(e)
        return 1
    return 0


# A kernel that spins until %globaltimer (nanoseconds) has moved on by its parameter: PTX, which
# the driver compiles for whatever GPU it finds (no toolkit needed).
SPIN_PTX = b"""
.version 7.0
.target sm_70
.address_size 64
.visible .entry spin(.param .u64 ns)
{
  .reg .u64 %d, %t0, %t, %lim;
  .reg .pred %p;
  ld.param.u64 %d, [ns];
  mov.u64 %t0, %globaltimer;
  add.u64 %lim, %t0, %d;
LOOP:
  mov.u64 %t, %globaltimer;
  setp.lt.u64 %p, %t, %lim;
  @%p bra LOOP;
  ret;
}
\0"""


def on_first_device(driver):
    if driver.init() == 0:
        raise RuntimeError("no visible device")
    device = driver.device(0)
    context = ctypes.c_void_p()
    driver.call("cuDevicePrimaryCtxRetain", ctypes.byref(context), device)
    driver.call("cuCtxSetCurrent", context)
    return device


def escape(pid_file):
    if os.fork() != 0:
        for _ in range(600):  # the holder writes its pid once it holds the memory
            if os.path.exists(pid_file):
                return 0
            time.sleep(0.05)
        return 1
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    hold(pid_file)


def hold(pid_file):
    """Takes 64 MiB on the first device, writes this process's pid to `pid_file` (atomically),
    and holds them until killed (a gated test that never ends)."""
    driver = Driver(load())
    on_first_device(driver)
    memory = ctypes.c_uint64()
    driver.call("cuMemAlloc_v2", ctypes.byref(memory), ctypes.c_size_t(64 << 20))
    with open(pid_file + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(pid_file + ".tmp", pid_file)
    while True:
        time.sleep(60)


def spin(seconds):
    driver = Driver(load())
    on_first_device(driver)
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    driver.call("cuModuleLoadData", ctypes.byref(module), ctypes.c_char_p(SPIN_PTX))
    driver.call("cuModuleGetFunction", ctypes.byref(function), module, b"spin")
    ns = ctypes.c_uint64(int(seconds * 1e9))
    params = (ctypes.c_void_p * 1)(ctypes.cast(ctypes.byref(ns), ctypes.c_void_p))
    driver.call("cuLaunchKernel", function, 1, 1, 1, 1, 1, 1, 0, None, params, None)
    print(f"kernel launched: spins for {seconds} s", flush=True)
    driver.call("cuCtxSynchronize")
    print("kernel ended")
    return 0


def main(argv):
    if argv[:1] == ["facts"]:
        print(json.dumps(facts_here()))
        return 0
    if argv[:2] == ["work", "--expect"] and len(argv) == 3:
        return work(int(argv[2]))
    if argv == ["bad-device"]:
        return bad_device()
    if argv[:1] == ["escape"] and len(argv) == 2:
        return escape(argv[1])
    if argv[:1] == ["spin"] and len(argv) == 2:
        return spin(float(argv[1]))
    print("usage: real_cuda.py facts | work --expect N | bad-device | escape PIDFILE | spin SECONDS", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
