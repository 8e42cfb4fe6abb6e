// roofline_call_many(): one formula over columns of arguments, for sweeps (roofline.h). It converts and
// calls the formula layer once per element, through the same table row as roofline_call(); no roofline
// math here. The arguments of a call are built once and only their varying numbers change from one
// element to the next, so that a number formula allocates nothing per element (a failing element
// allocates its error). No C++ exception leaves this file.
#include "roofline.h"

#include <algorithm>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "c_layer.hpp"
#include "roofline/formulas.hpp"

using namespace roofline::c_layer;

namespace {

/// The first element that failed: what roofline_errmsg(), roofline_errarg() and roofline_errdetail() say.
struct FirstFailure {
    bool any = false;
    roofline::Status status = roofline::Status::ok;
    std::string message, argument, reason;

    void record(roofline::Status s, std::string m, std::string a, std::string r) noexcept {
        if (any) return;
        try {
            message = std::move(m);
            argument = std::move(a);
            reason = std::move(r);
        } catch (...) {
            message.clear();
            argument.clear();
            reason.clear();
        }
        any = true;
        status = s;
    }
};

/// The status of one element, its result written only on success; the first failure is recorded.
template <typename Fn> int element(double* result, FirstFailure& first, Fn&& fn) noexcept {
    using roofline::Status;
    try {
        *result = fn();
        return ROOFLINE_OK;
    } catch (const roofline::Error& e) {
        first.record(e.status(), e.what(), e.argument(), e.reason());
        return static_cast<int>(e.status());
    } catch (const std::bad_alloc&) {
        first.record(Status::out_of_memory, "out of memory", "", "out of memory");
        return ROOFLINE_ERROR_NOMEM;
    } catch (const std::exception& e) {
        first.record(Status::internal, e.what(), "", e.what());
        return ROOFLINE_ERROR_INTERNAL;
    } catch (...) {
        first.record(Status::internal, "unknown internal error", "", "unknown internal error");
        return ROOFLINE_ERROR_INTERNAL;
    }
}

double number_of(const roofline::Value& v) { return std::get<double>(v.value); }

/// The checks of the call as a whole; throws roofline::Error. Returns the formula.
const roofline::FormulaSpec& checked_call(const char* name, const size_t* column_lengths, size_t nargs, size_t n) {
    using roofline::Error;
    using roofline::Status;
    const roofline::FormulaSpec* f = roofline::find_formula(name);
    // roofline::call() words an unknown name (with the nearest one) and a wrong arity: it throws before it
    // reads any argument, so those messages stay in one place.
    if (!f) roofline::call(name, {});
    const bool takes_rest = !f->args.empty() && f->args.back().type == roofline::Type::rest;
    const size_t fixed = takes_rest ? f->args.size() - 1 : f->args.size();
    const size_t required = static_cast<size_t>(
        std::count_if(f->args.begin(), f->args.end(), [](const roofline::ArgSpec& a) { return !a.optional; }));
    if (nargs < required || (!takes_rest && nargs > fixed)) roofline::call(name, std::vector<roofline::Arg>(nargs));
    if (f->result != roofline::Type::number)
        throw Error::of_argument(Status::invalid_argument, f->name, "name",
                                 std::string("roofline_call_many() takes only formulas whose result is a number; ") +
                                     f->name + " returns " + (f->result == roofline::Type::text ? "a text" : "an array") +
                                     ": call it with roofline_call()");
    for (size_t k = 0; k < nargs; ++k)
        if (column_lengths[k] != 1 && column_lengths[k] != n)
            throw Error::of_argument(Status::invalid_argument, f->name, k < fixed ? f->args[k].name : f->args[fixed].name,
                                     "has " + std::to_string(column_lengths[k]) + " values; a column must have 1 (one value for every call) or n = " +
                                         std::to_string(n));
    return *f;
}

int call_many(const char* name, const roofline_value* const* columns, const size_t* column_lengths, size_t nargs,
              size_t n, double* results, int* statuses, size_t* failed) {
    constexpr const char* where = "roofline_call_many";
    if (!name) return null_argument(where, "name");
    if (nargs > 0 && !columns) return null_argument(where, "columns");
    if (nargs > 0 && !column_lengths) return null_argument(where, "column_lengths");
    if (n > 0 && !results) return null_argument(where, "results");
    for (size_t k = 0; k < nargs; ++k)
        if (!columns[k] && column_lengths[k] > 0) return null_argument(where, ("columns[" + std::to_string(k) + "]").c_str());

    const roofline::FormulaSpec* f = nullptr;
    std::vector<roofline::Arg> full;      // every argument of one element, in formula order, defaults filled
    std::vector<roofline::Arg> as_given;  // one element's arguments as given (the general path)
    std::vector<size_t> varying;          // the columns whose value changes from one element to the next
    bool general = false;                 // a `rest` argument, or a column of mixed types: call by name
    if (int st = guard([&] {
            f = &checked_call(name, column_lengths, nargs, n);
            if (n == 0) return;  // nothing to compute, and no element to read
            const std::span<const roofline::ArgSpec> args = f->args;
            general = !args.empty() && args.back().type == roofline::Type::rest;
            full.reserve(args.size());
            for (size_t k = 0; k < args.size() && !general; ++k) {
                const roofline::ArgSpec& a = args[k];
                if (k >= nargs) {  // a trailing optional argument left out: its default from the table
                    if (roofline::passed_as_text(a.type)) full.push_back({std::string(a.default_text ? a.default_text : "")});
                    else full.push_back({a.default_number});
                    continue;
                }
                const bool text = roofline::passed_as_text(a.type);
                // A column holds the argument's type in every element, or the call takes the general path,
                // where roofline::call() refuses the elements of the wrong type as it always does.
                for (size_t i = 0; i < column_lengths[k] && !general; ++i)
                    general = (columns[k][i].text != nullptr) != text;
                if (general) break;
                if (column_lengths[k] > 1) varying.push_back(k);
                if (text) full.push_back({std::string(columns[k][0].text)});
                else full.push_back({columns[k][0].number});
            }
            if (general) as_given.resize(nargs);
        }))
        return st;
    if (n == 0) {
        clear_error();
        return ROOFLINE_OK;
    }

    FirstFailure first;
    size_t first_index = n;
    for (size_t i = 0; i < n; ++i) {
        int st;
        if (!general) {
            st = element(&results[i], first, [&] {
                for (size_t k : varying) {
                    const roofline_value& v = columns[k][i];
                    if (v.text) std::get<std::string>(full[k].value).assign(v.text);
                    else full[k].value = v.number;
                }
                return number_of(f->invoke(full));
            });
        } else {
            st = element(&results[i], first, [&] {
                for (size_t k = 0; k < nargs; ++k) {
                    const roofline_value& v = columns[k][column_lengths[k] == 1 ? 0 : i];
                    if (v.text) as_given[k].value = std::string(v.text);
                    else as_given[k].value = v.number;
                }
                return number_of(roofline::call(f->name, as_given));
            });
        }
        if (statuses) statuses[i] = st;
        if (st != ROOFLINE_OK && first_index == n) {
            first_index = i;
            if (!statuses) break;
        }
    }
    if (failed) *failed = first_index;
    if (!first.any) {
        clear_error();
        return ROOFLINE_OK;
    }
    return fail(first.status, first.message.c_str(), first.argument.c_str(), first.reason.c_str());
}

}  // namespace

extern "C" int roofline_call_many(const char* name, const roofline_value* const* columns, const size_t* column_lengths,
                                  size_t nargs, size_t n, double* results, int* statuses, size_t* failed) {
    if (failed) *failed = n;
    try {
        return call_many(name, columns, column_lengths, nargs, n, results, statuses, failed);
    } catch (...) {  // (only an allocation can fail outside the guards)
        return fail(roofline::Status::out_of_memory, "out of memory", "", "out of memory");
    }
}
