"""The invitation as others see it before they sit: its preview for chat apps, its picture and its
QR code."""
