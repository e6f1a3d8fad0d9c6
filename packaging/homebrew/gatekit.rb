# Homebrew formula for gatekit's tools (docs/contributing.md, "macOS").
#
#   brew install --HEAD ./packaging/homebrew/gatekit.rb     # the main branch, from source
#
# Each release gives it the stable source (`url` of the tag's source archive and its `sha256`;
# docs/releasing.md, step 3); until the first release, only --HEAD installs.
# The dependencies are the libraries cmake/GatekitDependencies.cmake finds with find_package
# (tests/packaging/test_homebrew_formula.py holds the two lists together): Boost (Boost.JSON
# compiled, the rest header-only), yaml-cpp, CLI11 (header-only), expat and libcurl's headers
# (macOS ships both libraries; gatekit loads libcurl at run time).
class Gatekit < Formula
  desc "Pull-request gates for projects with a CPU and a GPU test slice"
  homepage "https://github.com/gatekit/gatekit"
  license "MIT"
  head "https://github.com/gatekit/gatekit.git", branch: "main"

  depends_on "cli11" => :build
  depends_on "cmake" => :build
  depends_on "ninja" => :build
  depends_on "boost"
  depends_on "yaml-cpp"
  depends_on macos: :big_sur

  uses_from_macos "curl"
  uses_from_macos "expat"

  def install
    # The `release` preset of CMakePresets.json, the one place the release settings live (one
    # translation unit per target, the standard library precompiled, -O2, no warning set, no
    # tests); std_cmake_args repeats none of them but CMAKE_BUILD_TYPE=Release and
    # BUILD_TESTING=OFF, which the preset sets too (tests/packaging/test_release_settings.py).
    # Boost and yaml-cpp are linked statically where Homebrew has their archives.
    system "cmake", "--preset", "release", "-S", ".", "-B", "build", *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
  end

  test do
    # Every tool (tools/*/ but the core) starts and names itself and its version.
    %w[ci-report flaky-tracker gatekit-api gatekit-doctor gpu-gate matrix-aggregator path-classifier
       smoke-runner suite-report].each do |tool|
      assert_match(/^#{tool} \(gatekit\) \d+\.\d+\.\d+$/, shell_output("#{bin}/#{tool} --version"))
    end
  end
end
