"""The certificates that let the offline web answer https: a CA made fresh for each server run
and a certificate per requested host, signed by it.

Kept apart from the HTTP server because it is the only part that knows about X.509; the server
only asks it for a TLS context that picks the right certificate during the handshake.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
import ssl
import threading
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = ["CA_NICKNAME", "CertificateAuthority"]

CA_NICKNAME = "pcagent-local-ca"
"""The name the CA is trusted under in a HOME's NSS database."""
_MAX_HOST_CERTIFICATES = 256
_HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?")


class CertificateAuthority:
    """A CA made fresh for one server run, and per-host leaf certificates signed by it.

    Keys are P-256 (generating one takes microseconds, unlike RSA); one leaf key serves all hosts.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        now = datetime.datetime.now(datetime.UTC)
        self._not_before = now - datetime.timedelta(days=1)
        self._ca_key = ec.generate_private_key(ec.SECP256R1())
        self._ca_name = x509.Name(
            [
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, "pcagent offline web"),
                x509.NameAttribute(NameOID.COMMON_NAME, "pcagent local CA"),
            ]
        )
        public_key = self._ca_key.public_key()
        self.certificate = (
            x509.CertificateBuilder()
            .subject_name(self._ca_name)
            .issuer_name(self._ca_name)
            .public_key(public_key)
            .serial_number(x509.random_serial_number())
            .not_valid_before(self._not_before)
            .not_valid_after(now + datetime.timedelta(days=365))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
            .sign(self._ca_key, hashes.SHA256())
        )
        self.pem_path = directory / "ca.pem"
        self.pem_path.write_bytes(self.certificate.public_bytes(serialization.Encoding.PEM))
        self._leaf_key = ec.generate_private_key(ec.SECP256R1())
        self._leaf_key_path = directory / "leaf-key.pem"
        self._leaf_key_path.write_bytes(
            self._leaf_key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        self._leaf_key_path.chmod(0o600)
        self._contexts: dict[str, ssl.SSLContext] = {}
        self._lock = threading.Lock()

    def context_for(self, host: str) -> ssl.SSLContext:
        """A server-side TLS context presenting a certificate for ``host`` (made once, cached)."""
        with self._lock:
            context = self._contexts.get(host)
            if context is None:
                context = self._new_context(host)
                if len(self._contexts) < _MAX_HOST_CERTIFICATES:
                    self._contexts[host] = context
            return context

    def _new_context(self, host: str) -> ssl.SSLContext:
        try:
            alternative_name: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host))
        except ValueError:
            alternative_name = x509.DNSName(host)
        leaf_public = self._leaf_key.public_key()
        certificate = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
            .issuer_name(self._ca_name)
            .public_key(leaf_public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(self._not_before)
            # Chromium refuses leaf certificates valid for more than 398 days.
            .not_valid_after(self._not_before + datetime.timedelta(days=90))
            .add_extension(x509.SubjectAlternativeName([alternative_name]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(leaf_public), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self._ca_key.public_key()),
                critical=False,
            )
            .sign(self._ca_key, hashes.SHA256())
        )
        chain_path = self.directory / f"host-{host}.pem"
        chain_path.write_bytes(
            certificate.public_bytes(serialization.Encoding.PEM)
            + self.certificate.public_bytes(serialization.Encoding.PEM)
        )
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(chain_path, self._leaf_key_path)
        context.set_alpn_protocols(["http/1.1"])
        return context

    def server_context(self) -> ssl.SSLContext:
        """The context connections are wrapped with: switches to the requested host's certificate
        during the handshake; clients that send no name get one for 127.0.0.1."""
        context = self.context_for("127.0.0.1")

        def select_certificate(
            connection: ssl.SSLObject | ssl.SSLSocket, server_name: str | None, _: ssl.SSLContext
        ) -> None:
            name = (server_name or "").lower().rstrip(".")
            if _HOST_NAME.fullmatch(name):
                connection.context = self.context_for(name)

        context.sni_callback = select_certificate
        return context
