// Errors of the core. The C ABI maps each Status to a roofline_status of the same value.
#pragma once

#include <stdexcept>
#include <string>

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
};

/// An error that names what caused it: an argument, or the formula itself.
class Error : public std::runtime_error {
public:
    Error(Status status, std::string argument, const std::string& message)
        : std::runtime_error(message), status_(status), argument_(std::move(argument)) {}
    Status status() const noexcept { return status_; }
    /// The argument at fault ("batch"), or "" when no single argument is.
    const std::string& argument() const noexcept { return argument_; }

private:
    Status status_;
    std::string argument_;
};

}  // namespace roofline
