"""Money helpers: conversion to Decimal, rounding to cents, formatting."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")

Number = int | str | Decimal


def to_decimal(value: Number) -> Decimal:
    """Converts an int, a string or a Decimal to Decimal. Floats are refused on purpose:
    ``0.1`` as a float is not one tenth."""
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"use str or Decimal for money, not {type(value).__name__}: {value!r}")
    if isinstance(value, Decimal):
        result = value
    else:
        try:
            result = Decimal(value)
        except InvalidOperation:
            raise ValueError(f"not a number: {value!r}") from None
    if not result.is_finite():
        raise ValueError(f"not a finite amount: {value!r}")
    return result


def round_money(amount: Number) -> Decimal:
    """Rounds an amount to whole cents."""
    value = to_decimal(amount)
    return Decimal(str(round(float(value), 2))).quantize(CENT)


def format_money(amount: Number, currency: str) -> str:
    """``format_money(Decimal("1234.5"), "EUR") == "EUR 1,234.50"``; negative amounts get a
    leading minus sign: ``"EUR -3.00"``."""
    value = round_money(amount)
    sign = "-" if value < 0 else ""
    return f"{currency} {sign}{abs(value):,.2f}"
