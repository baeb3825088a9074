from decimal import Decimal

import pytest

from ledgerline import Invoice, format_money, round_money


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        ("2.675", "2.68"),
        ("0.125", "0.13"),
        ("1.005", "1.01"),
        ("-0.125", "-0.13"),
        ("-2.675", "-2.68"),
    ],
)
def test_half_cents_round_away_from_zero(amount, expected):
    result = round_money(amount)
    assert result == Decimal(expected)
    assert str(result) == expected


def test_just_below_half_a_cent_still_rounds_down():
    assert round_money("2.67499") == Decimal("2.67")
    assert round_money("-0.12499") == Decimal("-0.12")


def test_line_total_on_a_half_cent():
    inv = Invoice(currency="EUR")
    inv.add_line("Labels", quantity=3, unit_price="0.335")
    assert inv.subtotal() == Decimal("1.01")


def test_discounted_line_on_a_half_cent():
    inv = Invoice(currency="EUR")
    line = inv.add_line("Cable", quantity=1, unit_price="4.25", discount_rate="0.5")
    assert line.total() == Decimal("2.13")


def test_vat_on_a_half_cent():
    inv = Invoice(currency="EUR", vat_rate=Decimal("0.10"))
    inv.add_line("Service", quantity=1, unit_price="10.25")
    assert inv.vat() == Decimal("1.03")
    assert inv.total() == Decimal("11.28")
    parts = inv.instalments(2)
    assert parts == [Decimal("5.64"), Decimal("5.64")]


def test_credit_note_on_a_half_cent():
    inv = Invoice(currency="EUR", vat_rate=Decimal("0.10"))
    inv.add_line("Refund", quantity=-1, unit_price="10.25")
    assert inv.vat() == Decimal("-1.03")
    assert inv.total() == Decimal("-11.28")


def test_format_money_uses_the_same_rounding():
    assert format_money("0.125", "EUR") == "EUR 0.13"
    assert format_money("-1234.565", "EUR") == "EUR -1,234.57"


def test_large_amounts_keep_every_cent():
    assert round_money("12345678901234.565") == Decimal("12345678901234.57")
