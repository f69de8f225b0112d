"""The secrets and the address of ``pcagent serve``: the token, the bind check and TLS.

- The token is random (:func:`secrets.token_urlsafe`, 32 bytes), new at every start, and kept
  only in a file of mode 0600; the server prints the file's path, never the token.
- The server listens on the loopback interface unless told otherwise, and any other address
  needs both ``--allow-remote`` and TLS: a certificate given, or one made for the session
  (self-signed, with the ``cryptography`` package), whose fingerprint is printed so a client can
  check it.
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from pcagent.errors import RemoteAuthError, RemoteServeError

LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback interface."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by its owner only (mode 0600, whatever the umask),
    replacing the file; the folder is created with mode 0700."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(path.name + f".{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(descriptor, 0o600)
        os.write(descriptor, data)
    finally:
        os.close(descriptor)
    temporary.replace(path)


def new_token(path: Path) -> str:
    """A fresh token, written to ``path`` (mode 0600); returns it."""
    token = secrets.token_urlsafe(32)
    write_private(path, (token + "\n").encode())
    return token


def read_token(path: Path) -> str:
    """The token in ``path``; :class:`RemoteAuthError` when the file is missing or empty."""
    try:
        token = path.expanduser().read_text().strip()
    except OSError as error:
        raise RemoteAuthError(
            f"cannot read the token file {path} ({error.strerror}); copy the file `pcagent serve` "
            "printed from the serving machine"
        ) from error
    if not token:
        raise RemoteAuthError(f"the token file {path} is empty")
    return token


@dataclass(frozen=True)
class TlsFiles:
    """A certificate and its private key (PEM), and the certificate's SHA-256 fingerprint."""

    certificate: Path
    key: Path
    fingerprint: str


def fingerprint_of(certificate: Path) -> str:
    """SHA-256 of the certificate (DER), as colon-separated hex pairs."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    loaded = x509.load_pem_x509_certificate(certificate.read_bytes())
    digest = hashlib.sha256(loaded.public_bytes(serialization.Encoding.DER)).hexdigest()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2)).upper()


def self_signed_certificate(folder: Path, host: str, days: int = 30) -> TlsFiles:
    """Make a key and a self-signed certificate for ``host`` (and this machine's name, localhost
    and 127.0.0.1) in ``folder``. Raises :class:`RemoteServeError` without ``cryptography``."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError as error:
        raise RemoteServeError(
            "serving beyond this machine needs TLS: give --tls-cert and --tls-key, or install "
            "the 'cryptography' package so a certificate can be made for the session"
        ) from error
    key = ec.generate_private_key(ec.SECP256R1())
    names: list[x509.GeneralName] = [x509.DNSName("localhost")]
    addresses = {"127.0.0.1"}
    for name in {host, socket.gethostname()}:
        if not name or name in ("0.0.0.0", "::"):
            continue
        try:
            addresses.add(str(ipaddress.ip_address(name)))
        except ValueError:
            names.append(x509.DNSName(name))
    names += [x509.IPAddress(ipaddress.ip_address(address)) for address in sorted(addresses)]
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pcagent serve")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_path = folder / "key.pem"
    certificate_path = folder / "cert.pem"
    write_private(
        key_path,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
    write_private(certificate_path, certificate.public_bytes(serialization.Encoding.PEM))
    certificate_path.chmod(0o644)  # the certificate is public: clients get a copy
    return TlsFiles(certificate_path, key_path, fingerprint_of(certificate_path))


def check_bind(
    host: str,
    *,
    allow_remote: bool,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_folder: Path,
) -> TlsFiles | None:
    """Decide whether the server may listen on ``host``, and with which TLS files.

    Loopback: plain HTTP unless a certificate is given. Anything else: only with
    ``allow_remote`` and TLS (the given files, or a self-signed certificate made in
    ``tls_folder``). Raises :class:`RemoteServeError` naming the option to add.
    """
    if (tls_cert is None) != (tls_key is None):
        raise RemoteServeError("give --tls-cert and --tls-key together")
    given = None
    if tls_cert is not None and tls_key is not None:
        for path in (tls_cert, tls_key):
            if not path.expanduser().is_file():
                raise RemoteServeError(f"{path}: no such file")
        certificate = tls_cert.expanduser()
        given = TlsFiles(certificate, tls_key.expanduser(), fingerprint_of(certificate))
    if is_loopback(host):
        return given
    if not allow_remote:
        raise RemoteServeError(
            f"{host} is not a loopback address: anyone who reaches it could drive this desktop. "
            "Serve on 127.0.0.1 and reach it through an SSH tunnel, or add --allow-remote "
            "(TLS is then required)"
        )
    return given if given is not None else self_signed_certificate(tls_folder, host)
