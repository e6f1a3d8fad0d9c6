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
    # The release preset's settings: one translation unit per target, no tests; Boost and
    # yaml-cpp are linked statically where Homebrew has their archives.
    args = %w[
      -DBUILD_TESTING=OFF
      -DCMAKE_UNITY_BUILD=ON
      -DCMAKE_UNITY_BUILD_BATCH_SIZE=0
      -DGATEKIT_STATIC_RUNTIME=ON
    ]
    system "cmake", "-S", ".", "-B", "build", "-G", "Ninja", *args, *std_cmake_args
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
