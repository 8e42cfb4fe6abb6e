// What the translation units of the C layer share: the thread's last error, the guards that turn
// every exception into a status, and the conversions of arguments and results. Used by roofline.cpp
// and by the typed C function of each formula, which roofline-codegen generates from the table into
// the build tree (formula_functions.cpp). Internal to libroofline.so: not installed.
#pragma once

#include "roofline.h"

#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/formulas.hpp"

/// An array result. A formula's number or text is a 1 x 1 array held in `scalar`, without a vector.
struct roofline_array {
    roofline::Table table;                     ///< when !is_scalar
    std::variant<double, std::string> scalar;  ///< when is_scalar
    bool is_scalar = false;
};

namespace roofline::c_layer {

/// Records the calling thread's error: the whole message, the argument at fault, and the reason alone.
int fail(Status status, const char* message, const char* argument, const char* reason) noexcept;
int fail(const Error& e) noexcept;
/// Clears the calling thread's error, after a success.
void clear_error() noexcept;

/// Refuses a NULL pointer argument of a C function (`where`: the formula, or the C function).
int null_argument(const char* where, const char* argument) noexcept;

/// Refuses NULL text arguments, naming the first that is NULL; ROOFLINE_OK when none is.
int null_text(const char* formula, std::initializer_list<std::pair<const char*, const char*>> texts) noexcept;

/// Runs `fn`, which writes the result; maps every exception to a status and the thread's error.
template <typename Fn> int guard(Fn&& fn) noexcept {
    try {
        fn();
        clear_error();
        return ROOFLINE_OK;
    } catch (const Error& e) {
        return fail(e);
    } catch (const std::bad_alloc&) {
        return fail(Status::out_of_memory, "out of memory", "", "out of memory");
    } catch (const std::exception& e) {
        return fail(Status::internal, e.what(), "", e.what());
    } catch (...) {
        return fail(Status::internal, "unknown internal error", "", "unknown internal error");
    }
}

/// A formula call: checks the out-parameter, then computes into it.
template <typename T, typename Fn> int compute(const char* formula, T* result, Fn&& fn) noexcept {
    if (!result) return null_argument(formula, "result");
    return guard([&] { *result = fn(); });
}

/// The arguments of a call by name (or of a `rest` argument), as the core takes them.
std::vector<Arg> core_args(const roofline_value* args, size_t nargs);

/// A new array result that the caller frees with roofline_array_free().
roofline_array* new_array(Table table);
/// A formula's result of any type as a new array (a number or a text: 1 x 1).
roofline_array* new_array(Value value);

/// Adds a catalog's JSON text: its GPUs and models (roofline::add_catalog) and its named profiles
/// (roofline::add_named_profiles), the profiles checked first so that a bad one adds nothing of the file.
std::size_t add_catalog_text(std::string_view catalog_json);

// ---- A core function's result as its C function returns it. ----
inline double c_result(double number) { return number; }
/// The core returns a view only of static storage (a literal): it outlives the call (roofline.h: MEMORY).
inline const char* c_result(std::string_view static_text) { return static_text.data(); }
/// A computed text: kept in the calling thread's storage until its next call that computes a text.
const char* c_result(std::string&& computed_text);
inline roofline_array* c_result(Table table) { return new_array(std::move(table)); }

}  // namespace roofline::c_layer
