// Import analysis: runs the shipped Python script and decodes its JSON (see gatekit/python_imports.hpp).
#include "gatekit/python_imports.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::python {

namespace {

constexpr std::string_view kImportsScript =
#include "python_imports.py.inc"
    ;

// The script's output for a large repository stays far below this; more is not its output.
constexpr std::size_t kMaxImportsReportBytes = std::size_t{256} << 20;

constexpr std::array<std::pair<std::string_view, ImportKind>, 5> kKinds{{
    {"import", ImportKind::plain},
    {"from", ImportKind::from},
    {"relative", ImportKind::relative},
    {"dynamic", ImportKind::dynamic},
    {"run", ImportKind::run},
}};

bool inside(std::string_view name, std::string_view module) {
  if (name.size() < module.size() || name.substr(0, module.size()) != module) return false;
  return name.size() == module.size() || name[module.size()] == '.';
}

bool reaches_name(std::string_view name, std::string_view module, bool drop_leading) {
  while (true) {
    if (inside(name, module)) return true;
    const auto dot = name.find('.');
    if (!drop_leading || dot == std::string_view::npos) return false;
    name.remove_prefix(dot + 1);
  }
}

Error bad_imports_report(std::string_view what) {
  return could_not_evaluate("the import analysis printed unexpected output: " + std::string(what));
}

Result<Import> decode_import(const boost::json::value& value) {
  const auto* object = value.if_object();
  if (object == nullptr) return bad_imports_report("an import is not an object");
  Import import;
  auto module = json_string_at(*object, "module");
  auto kind = json_string_at(*object, "kind");
  auto where = json_string_at(*object, "where");
  auto line = json_int_at(*object, "line");
  const auto* names = json_find(*object, "names");
  if (!module || !kind || !where || !line || names == nullptr || !names->is_array()) {
    return bad_imports_report("an import lacks module, names, line, kind or where");
  }
  import.module = *module;
  import.where = *where;
  import.line = static_cast<int>(*line);
  const auto known = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& k) { return k.first == *kind; });
  if (known == kKinds.end()) return bad_imports_report("unknown import kind " + visible_controls(*kind));
  import.kind = known->second;
  for (const auto& name : names->get_array()) {
    if (!name.is_string()) return bad_imports_report("an imported name is not a string");
    import.names.emplace_back(name.get_string());
  }
  return import;
}

// One file's entry: its imports and notes, or the reason it could not be analysed.
Result<SourceFile> decode_file(const boost::json::value& value, const std::string& path) {
  const auto* object = value.if_object();
  if (object == nullptr) return bad_imports_report("a file entry is not an object");
  SourceFile file{path, {}, {}, ""};
  if (const auto* error = json_find(*object, "error"); error != nullptr && error->is_object()) {
    const auto& e = error->get_object();
    const auto line = json_int_at(e, "line").value_or(0);
    const auto column = json_int_at(e, "column").value_or(0);
    std::string where = visible_controls(path);
    if (line > 0) where += ":" + std::to_string(line) + (column > 0 ? ":" + std::to_string(column) : "");
    file.error = where + ": cannot analyse its imports: " + json_string_at(e, "message").value_or("unknown error");
    return file;
  }
  const auto* imports = json_find(*object, "imports");
  const auto* notes = json_find(*object, "notes");
  if (imports == nullptr || !imports->is_array() || notes == nullptr || !notes->is_array()) {
    return bad_imports_report("a file entry lacks imports or notes");
  }
  for (const auto& item : imports->get_array()) {
    auto import = decode_import(item);
    if (!import) return import.error();
    file.imports.push_back(std::move(*import));
  }
  for (const auto& item : notes->get_array()) {
    const auto* note = item.if_object();
    if (note == nullptr) return bad_imports_report("a note is not an object");
    file.notes.push_back({static_cast<int>(json_int_at(*note, "line").value_or(0)),
                          json_string_at(*note, "message").value_or("")});
  }
  return file;
}

}  // namespace

std::string_view to_string(ImportKind kind) {
  for (const auto& [text, value] : kKinds) {
    if (value == kind) return text;
  }
  return "import";
}

bool reaches(const Import& import, std::string_view module) {
  if (module.empty()) return false;
  const bool relative = import.kind == ImportKind::relative;
  if (reaches_name(import.module, module, relative)) return true;
  if (import.kind != ImportKind::from && !relative) return false;
  for (const auto& name : import.names) {
    const std::string full = import.module.empty() ? name : import.module + "." + name;
    if (reaches_name(full, module, relative)) return true;
  }
  return false;
}

Result<std::vector<SourceFile>> parse_import_report(std::string_view json, const std::vector<std::string>& paths) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(json, ec);
  if (ec) return bad_imports_report("not JSON (" + ec.message() + ")");
  const auto* root = value.if_object();
  const auto* files = root == nullptr ? nullptr : json_find(*root, "files");
  if (files == nullptr || !files->is_array()) return bad_imports_report("no `files` list");
  if (files->get_array().size() != paths.size()) {
    return bad_imports_report(std::to_string(files->get_array().size()) + " entries for " + std::to_string(paths.size()) +
                      " files");
  }
  std::vector<SourceFile> result;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    auto file = decode_file(files->get_array()[i], paths[i]);
    if (!file) return file.error();
    result.push_back(std::move(*file));
  }
  return result;
}

Result<std::vector<SourceFile>> analyze_imports(ProcessRunner& processes, const std::filesystem::path& repo_dir,
                                                const std::vector<std::string>& paths, const std::string& python) {
  if (paths.empty()) return std::vector<SourceFile>{};
  boost::json::array list;
  for (const auto& path : paths) list.emplace_back(path);
  ProcessSpec spec;
  spec.argv = {python, "-I", "-c", std::string(kImportsScript)};
  spec.cwd = repo_dir;
  spec.stdin_data = boost::json::serialize(boost::json::object{{"files", std::move(list)}});
  spec.capture_limit = kMaxImportsReportBytes;
  spec.timeout = std::chrono::minutes(10);
  auto ran = processes.run(spec);
  if (!ran) return could_not_evaluate("cannot analyse Python imports: " + ran.error().message);
  if (!ran->succeeded()) {
    return could_not_evaluate("cannot analyse Python imports: " + python + " " + ran->describe() + ": " +
                              visible_controls(trim(ran->err)));
  }
  if (ran->out_bytes > ran->out.size()) return bad_imports_report("more than " + std::to_string(kMaxImportsReportBytes) + " bytes");
  return parse_import_report(ran->out, paths);
}

std::string_view import_analysis_script() { return kImportsScript; }

}  // namespace gatekit::python
