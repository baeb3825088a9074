"""Invoice arithmetic for the billing service."""

from .money import CENT, format_money, round_money, to_decimal
from .invoice import Invoice, InvoiceLine

__all__ = [
    "CENT",
    "Invoice",
    "InvoiceLine",
    "format_money",
    "round_money",
    "to_decimal",
]
