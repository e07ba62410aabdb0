# SPDX-License-Identifier: MIT
"""A double as the runner's JSON library writes it, digit for digit.

bookrun writes a record with nlohmann::json, whose dump() prints a double with
the Grisu2 algorithm (Loitsch, "Printing Floating-Point Numbers Quickly and
Accurately with Integers", PLDI 2010). Grisu2 always reads back as the same
double, but it is not always the shortest or the closest such text: for some
doubles its last digit differs from Python's repr(). A record's digest is a
sha256 over that text, so the Python reader writes every double the way Grisu2
does (text), not the way Python does. The test unit.runner.python-reader holds
this to bookrun's own output over many doubles.
"""
from __future__ import annotations

import math
import struct

_MASK64 = (1 << 64) - 1
_ALPHA, _GAMMA = -60, -32


def _cached_power(k: int) -> tuple[int, int]:
    """10^k as f * 2^e with f a 64-bit significand whose top bit is set, rounded
    to nearest (ties up): the table Grisu2 keeps, one entry every 8 decades."""
    if k >= 0:
        num, den = 10 ** k, 1
    else:
        num, den = 1, 10 ** -k
    e = num.bit_length() - den.bit_length() - 64
    while True:  # 2^63 <= 10^k / 2^e < 2^64
        scaled_num, scaled_den = (num, den << e) if e >= 0 else (num << -e, den)
        f = scaled_num // scaled_den
        if f >= 1 << 64:
            e += 1
        elif f < 1 << 63:
            e -= 1
        else:
            break
    f, rest = divmod(scaled_num, scaled_den)
    if 2 * rest >= scaled_den:
        f += 1
    if f == 1 << 64:
        f, e = 1 << 63, e + 1
    return f, e


_POWERS = {k: _cached_power(k) for k in range(-300, 325, 8)}


def _mul(xf: int, yf: int) -> int:
    """The upper 64 bits of the 128-bit product, rounded as Grisu2 rounds them
    (the low half's top bit added)."""
    return ((xf * yf) + (1 << 63)) >> 64


def _normalize(f: int, e: int) -> tuple[int, int]:
    shift = 64 - f.bit_length()
    return f << shift, e - shift


def _boundaries(value: float) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    exp, frac = bits >> 52, bits & ((1 << 52) - 1)
    if exp == 0:
        vf, ve = frac, 1 - 1075
    else:
        vf, ve = frac + (1 << 52), exp - 1075
    plus = _normalize(2 * vf + 1, ve - 1)
    if frac == 0 and exp > 1:
        mf, me = 4 * vf - 1, ve - 2
    else:
        mf, me = 2 * vf - 1, ve - 1
    minus = (mf << (me - plus[1]), plus[1])
    return minus, _normalize(vf, ve), plus


def _round(digits: list, dist: int, delta: int, rest: int, ten_k: int) -> None:
    while (rest < dist and delta - rest >= ten_k
           and (rest + ten_k < dist or dist - rest > rest + ten_k - dist)):
        digits[-1] -= 1
        rest += ten_k


def _grisu2(value: float) -> tuple[list, int]:
    """The decimal digits of a finite value > 0 and their exponent: value ~ digits * 10^exp."""
    (mf, me), (vf, ve), (pf, pe) = _boundaries(value)
    f = _ALPHA - pe - 1
    k = (f * 78913) // (1 << 18) + (f > 0) if f >= 0 else -((-f * 78913) // (1 << 18))
    index = (300 + k + 7) // 8
    cached_k = -300 + 8 * index
    cf, ce = _POWERS[cached_k]
    w = (_mul(vf, cf), ve + ce + 64)
    w_minus = (_mul(mf, cf), me + ce + 64)
    w_plus = (_mul(pf, cf), pe + ce + 64)
    m_minus, m_plus = w_minus[0] + 1, w_plus[0] - 1
    exponent = -cached_k  # v ~ w * 10^-k
    # digit generation (Grisu2's digit_gen), with one = 2^-e
    e = w_plus[1]
    delta = m_plus - m_minus
    dist = m_plus - w[0]
    one = 1 << -e
    p1, p2 = m_plus >> -e, m_plus & (one - 1)
    digits: list = []
    n = len(str(p1)) if p1 else 1
    pow10 = 10 ** (n - 1)
    while n > 0:
        d, p1 = divmod(p1, pow10)
        digits.append(d)
        n -= 1
        rest = (p1 << -e) + p2
        if rest <= delta:
            exponent += n
            _round(digits, dist, delta, rest, pow10 << -e)
            return digits, exponent
        pow10 //= 10
    m = 0
    while True:
        p2 *= 10
        digits.append(p2 >> -e)
        p2 &= one - 1
        m += 1
        delta = (delta * 10) & _MASK64
        dist = (dist * 10) & _MASK64
        if p2 <= delta:
            break
    exponent -= m
    _round(digits, dist, delta, p2, one)
    return digits, exponent


def text(value: float) -> str:
    """value as nlohmann::json::dump() writes it: 'null' for a NaN or an infinity;
    fixed notation for 1e-4 <= |value| < 1e15 (a whole number with '.0'), else
    <d>[.<digits>]e<sign><two or three digits>."""
    if not math.isfinite(value):
        return "null"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    value = abs(value)
    if value == 0:
        return sign + "0.0"
    digits, exponent = _grisu2(value)
    s = "".join(str(d) for d in digits)
    k, n = len(s), len(s) + exponent
    if k <= n <= 15:
        return f"{sign}{s}{'0' * (n - k)}.0"
    if 0 < n <= 15:
        return f"{sign}{s[:n]}.{s[n:]}"
    if -4 < n <= 0:
        return f"{sign}0.{'0' * -n}{s}"
    mantissa = s if k == 1 else f"{s[0]}.{s[1:]}"
    e = n - 1
    return f"{sign}{mantissa}e{'-' if e < 0 else '+'}{abs(e):02d}"
