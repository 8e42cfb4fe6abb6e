// roofline_catalog_load_user_folder(): the one function of libroofline.so that reads files. A host calls
// it (the Calc add-in when the office creates it, the CLI before a subcommand, the Python package on
// import); no formula does, and no formula argument can name a file (the core does no I/O).
#include "roofline.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "c_layer.hpp"
#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

namespace {

namespace fs = std::filesystem;
using roofline::Status;

constexpr const char kWhere[] = "roofline_catalog_load_user_folder";

// Paths are UTF-8 text on every platform. On Windows a path's own narrow form is the ANSI code page's and
// its separator '\\': the text of a path there is its UTF-8 generic form ('/', as in the folder's name).
fs::path path_of(const char* utf8) {
#ifdef _WIN32
    return fs::path(std::u8string(reinterpret_cast<const char8_t*>(utf8)));
#else
    return fs::path(utf8);
#endif
}

std::string text_of(const fs::path& path) {
#ifdef _WIN32
    const std::u8string text = path.generic_u8string();
    return std::string(text.begin(), text.end());
#else
    return path.string();
#endif
}

std::FILE* open_to_read(const fs::path& path) {
#ifdef _WIN32
    return _wfopen(path.c_str(), L"rb");
#else
    return std::fopen(path.c_str(), "rb");
#endif
}

/// $XDG_CONFIG_HOME/libroofline (when set to an absolute path), else $HOME/.config/libroofline; none
/// when neither is set.
std::optional<fs::path> default_folder() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg && path_of(xdg).is_absolute()) return path_of(xdg) / "libroofline";
    const char* home = std::getenv("HOME");
    if (home && *home) return path_of(home) / ".config" / "libroofline";
    return std::nullopt;
}

/// The *.json files of `folder` by name (folders and names beginning with '.' left out); none when
/// `folder` is not a folder.
std::vector<fs::path> json_files(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return files;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        const std::string name = text_of(path.filename());
        if (name.empty() || name.front() == '.' || path.extension() != ".json") continue;
        std::error_code type_ec;
        if (it->is_directory(type_ec)) continue;
        files.push_back(path);
    }
    std::sort(files.begin(), files.end());
    return files;
}

struct Failure {
    Status status;
    std::string line;  ///< "<path>: <reason>"
};

/// The whole text of a file, or nullopt with the reason in `why`.
std::optional<std::string> read_text(const fs::path& path, std::string& why) {
    errno = 0;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(open_to_read(path), &std::fclose);
    if (!f) {
        why = std::string("cannot be read: ") + std::strerror(errno ? errno : EIO);
        return std::nullopt;
    }
    std::string text;
    char buffer[65536];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0;) text.append(buffer, n);
    if (std::ferror(f.get())) {
        why = std::string("cannot be read: ") + std::strerror(errno ? errno : EIO);
        return std::nullopt;
    }
    return text;
}

/// Loads one file with `load`, which returns the number of entries it added; records a failure.
template <typename Load>
void load_file(const fs::path& path, Load&& load, std::size_t& added, std::vector<Failure>& failures) {
    std::string why;
    const std::optional<std::string> text = read_text(path, why);
    if (!text) {
        failures.push_back({Status::invalid_argument, text_of(path) + ": " + why});
        return;
    }
    try {
        added += load(path, *text);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const roofline::Error& e) {
        failures.push_back({e.status(), text_of(path) + ": " + e.reason()});
    } catch (const std::exception& e) {
        failures.push_back({Status::invalid_argument, text_of(path) + ": " + e.what()});
    }
}

}  // namespace

std::size_t roofline::c_layer::add_catalog_text(std::string_view catalog_json) {
    // The profiles checked before anything is added; a bad GPU or model then refuses the file in add_catalog()
    // before its profiles are added.
    roofline::add_named_profiles(catalog_json, "catalog_json", false);
    const std::size_t entries = roofline::add_catalog(catalog_json);
    return entries + roofline::add_named_profiles(catalog_json);
}

extern "C" {

const char* roofline_user_folder(void) {
    using namespace roofline::c_layer;
    std::string path;
    if (guard([&] {
            if (const std::optional<fs::path> dir = default_folder()) path = text_of(*dir);
        }) != ROOFLINE_OK)
        path.clear();
    return c_result(std::move(path));
}

int roofline_catalog_load_user_folder(const char* folder, size_t* added) {
    using namespace roofline::c_layer;
    std::size_t count = 0;
    Status first = Status::ok;
    std::string detail, message;
    const int st = guard([&] {
        const std::optional<fs::path> dir = folder && *folder ? std::optional<fs::path>(path_of(folder)) : default_folder();
        if (!dir) return;
        std::vector<Failure> failures;
        for (const fs::path& path : json_files(*dir / "catalog"))
            load_file(path, [](const fs::path&, const std::string& text) { return add_catalog_text(text); },
                      count, failures);
        for (const fs::path& path : json_files(*dir / "models"))
            load_file(path,
                      [](const fs::path& p, const std::string& text) -> std::size_t {
                          roofline::add_model_from_hf_config(text_of(p.stem()), text);
                          return 1;
                      },
                      count, failures);
        if (failures.empty()) return;
        first = failures.front().status;
        for (const Failure& f : failures) detail.append(detail.empty() ? "" : "\n").append(f.line);
        message = std::string(kWhere) + ": " + detail;
    });
    if (added) *added = count;
    if (st != ROOFLINE_OK || first == Status::ok) return st;
    return fail(first, message.c_str(), "", detail.c_str());
}

}  // extern "C"
