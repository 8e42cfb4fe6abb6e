// Units of libroofline, defined once and used by every layer.
//
// The formula contract (docs/formulas.md) fixes the unit of every quantity a user sees:
// parameters in billions, bandwidth in TB/s (1e12 B/s), compute in TFLOP/s (1e12 FLOP/s, dense),
// memory results in GB (1e9 B), KV cache in KiB (1024 B) per token, time in milliseconds,
// throughput in tokens per second. The core computes in SI base units (FLOP, bytes, seconds) and
// converts at its edges with these functions only.
#pragma once

namespace roofline::units {

inline constexpr double tera = 1e12;          ///< TB/s and TFLOP/s
inline constexpr double giga = 1e9;           ///< GB and billions of parameters
inline constexpr double kib = 1024.0;         ///< KiB of KV cache
inline constexpr double ms_per_second = 1e3;  ///< milliseconds
/// Hours of a year (365 days): an owned server's purchase price is spread over its years of them.
inline constexpr double hours_per_year = 8760;
/// Hours of a month: a year's 8,760 over 12, as cloud price lists count a month (730 hours).
inline constexpr double hours_per_month = hours_per_year / 12;
inline constexpr double watts_per_kw = 1e3;      ///< power of a deployment in kW
inline constexpr double kw_per_mw = 1e3;         ///< tokens/s per MW
inline constexpr double joules_per_kwh = 3.6e6;  ///< electricity in kWh

constexpr double params_from_billions(double params_b) { return params_b * giga; }
constexpr double bytes_from_gb(double gb) { return gb * giga; }
constexpr double gb_from_bytes(double bytes) { return bytes / giga; }
constexpr double bytes_from_kib(double kib_count) { return kib_count * kib; }
constexpr double flops_per_second_from_tflops(double tflops) { return tflops * tera; }
constexpr double bytes_per_second_from_tbs(double tbs) { return tbs * tera; }
constexpr double ms_from_seconds(double seconds) { return seconds * ms_per_second; }
constexpr double seconds_from_ms(double ms) { return ms / ms_per_second; }
constexpr double kw_from_w(double w) { return w / watts_per_kw; }
constexpr double kwh_from_joules(double joules) { return joules / joules_per_kwh; }

}  // namespace roofline::units
