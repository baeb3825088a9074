from decimal import Decimal

import pytest

from ledgerline import format_money, round_money, to_decimal


def test_to_decimal_accepts_int_str_decimal():
    assert to_decimal(3) == Decimal("3")
    assert to_decimal("19.99") == Decimal("19.99")
    assert to_decimal(Decimal("0.5")) == Decimal("0.5")


@pytest.mark.parametrize("bad", [0.1, True])
def test_to_decimal_refuses_floats_and_bools(bad):
    with pytest.raises(TypeError):
        to_decimal(bad)


@pytest.mark.parametrize("bad", ["abc", "NaN", "Infinity", ""])
def test_to_decimal_refuses_non_numbers(bad):
    with pytest.raises(ValueError):
        to_decimal(bad)


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        ("1", "1.00"),
        ("2.5", "2.50"),
        ("19.994", "19.99"),
        ("19.996", "20.00"),
        ("-4.004", "-4.00"),
        ("0.001", "0.00"),
    ],
)
def test_round_money(amount, expected):
    result = round_money(amount)
    assert result == Decimal(expected)
    assert str(result) == expected


def test_format_money():
    assert format_money(Decimal("1234.5"), "EUR") == "EUR 1,234.50"
    assert format_money("0", "USD") == "USD 0.00"
    assert format_money("-3", "EUR") == "EUR -3.00"
