// What the translation units of the C layer share: the thread's last error, and the guards that
// turn every exception into a status. Used by roofline.cpp and by the typed C function of each
// formula, which roofline-codegen generates from the table (build tree, formula_functions.cpp).
// Internal to libroofline.so: not installed.
#pragma once

#include "roofline.h"

#include <cstdio>
#include <exception>
#include <initializer_list>
#include <new>
#include <utility>

#include "roofline/error.hpp"
#include "roofline/formulas.hpp"

struct roofline_array {
    roofline::Table table;
};

namespace roofline::c_layer {

/// Records a failure as the calling thread's last error; returns `status` as an int.
int fail(Status status, const char* message, const char* argument) noexcept;
/// Clears the calling thread's last error, after a success.
void clear_error() noexcept;

/// Runs `fn`, which writes the result; maps every exception to a status and the thread's error.
template <typename Fn> int guard(Fn&& fn) noexcept {
    try {
        fn();
        clear_error();
        return ROOFLINE_OK;
    } catch (const Error& e) {
        return fail(e.status(), e.what(), e.argument().c_str());
    } catch (const std::bad_alloc&) {
        return fail(Status::out_of_memory, "out of memory", "");
    } catch (const std::exception& e) {
        return fail(Status::internal, e.what(), "");
    } catch (...) {
        return fail(Status::internal, "unknown internal error", "");
    }
}

/// A formula call: checks the out-parameter, then computes into it.
template <typename T, typename Fn> int compute(const char* formula, T* result, Fn&& fn) noexcept {
    if (!result) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "%s: the result pointer is NULL", formula);
        return fail(Status::null_pointer, msg, "result");
    }
    return guard([&] { *result = fn(); });
}

/// Refuses NULL text arguments, naming the first that is NULL; ROOFLINE_OK when none is.
int null_text(const char* formula, std::initializer_list<std::pair<const char*, const char*>> texts) noexcept;

/// A new array result that the caller frees with roofline_array_free().
roofline_array* new_array(Table table);

}  // namespace roofline::c_layer
