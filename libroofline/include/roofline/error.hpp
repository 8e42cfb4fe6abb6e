// Errors of the core. The C ABI maps each Status to a roofline_status of the same value.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace roofline {

/// Why a formula gave no result. Values are those of roofline_status in roofline.h.
enum class Status : int {
    ok = 0,
    invalid_argument = 1,  ///< an argument is NaN, infinite, outside its domain or of the wrong type
    no_solution = 2,       ///< the inputs are valid but the question has no answer
    out_of_range = 3,      ///< the result is too large to represent
    null_pointer = 4,      ///< a required pointer was NULL (C ABI only)
    unknown_formula = 5,   ///< no formula of that name
    wrong_arity = 6,       ///< too few or too many arguments for the formula
    out_of_memory = 7,     ///< an allocation failed
    internal = 8,          ///< a bug: please report it
    unknown_id = 9,        ///< a text argument names no catalog entry (model, GPU, dtype, profile, field)
};

/// An error that says where it happened (a formula, or a function of the C ABI), which argument is at
/// fault, and why. Its message, what(), reads "<where>: argument '<argument>': <reason>" when it is the
/// argument's fault, else "<where>: <reason>"; "<where>: " is left out when `where` is empty.
class Error : public std::runtime_error {
public:
    /// The argument is at fault: a bad value, an unknown id.
    static Error of_argument(Status status, std::string_view where, std::string argument, std::string reason) {
        return {status, where, std::move(argument), std::move(reason), true};
    }
    /// The call as a whole fails (no answer, too large a result, a bug); `argument` names the argument most
    /// to blame (roofline_errarg), or is "".
    static Error of_call(Status status, std::string_view where, std::string argument, std::string reason) {
        return {status, where, std::move(argument), std::move(reason), false};
    }

    Status status() const noexcept { return status_; }
    /// Where it happened: the formula ("ROOFLINE_DECODE_MS"), a function of the C ABI, or "".
    const std::string& where() const noexcept { return where_; }
    /// The argument at fault ("batch"), or "" when no single argument is.
    const std::string& argument() const noexcept { return argument_; }
    /// Why, without where: "must be a whole number >= 1 (got 0.5)".
    const std::string& reason() const noexcept { return reason_; }

private:
    Error(Status status, std::string_view where, std::string argument, std::string reason, bool argument_at_fault)
        : std::runtime_error(message(where, argument, reason, argument_at_fault)),
          status_(status),
          where_(where),
          argument_(std::move(argument)),
          reason_(std::move(reason)) {}

    static std::string message(std::string_view where, const std::string& argument, const std::string& reason,
                               bool argument_at_fault) {
        std::string m;
        if (!where.empty()) m.append(where).append(": ");
        if (argument_at_fault && !argument.empty()) m.append("argument '").append(argument).append("': ");
        return m.append(reason);
    }

    Status status_;
    std::string where_;
    std::string argument_;
    std::string reason_;
};

}  // namespace roofline
