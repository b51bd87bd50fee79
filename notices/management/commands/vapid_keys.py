"""``manage.py vapid_keys``: print a new VAPID key pair for Web Push (RFC 8292), as the
environment variables the settings read."""

from base64 import urlsafe_b64encode

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_pair() -> tuple[str, str]:
    """``(public, private)``: the P-256 public key as the uncompressed point browsers take
    for ``applicationServerKey``, the private key as its 32 raw bytes; both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64(public), _b64(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) for Web Push."

    def handle(self, *args, **options) -> None:
        public, private = new_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
        self.stdout.write("VAPID_SUBJECT=mailto:you@example.com\n")
