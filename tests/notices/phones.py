"""Stand-ins for the push providers at their HTTP boundary (FCM and APNs cannot be reached
from a test machine): the real django-push-notifications, firebase-admin and aioapns code
runs, builds the request and parses the answer; only the call that would go out on the
network is replaced.

- FCM: ``firebase_admin._http_client.JsonHttpClient.body``, the POST of each message to
  ``https://fcm.googleapis.com/v1/projects/<project>/messages:send``; it records the URL
  and the JSON body and answers 200, or the 404 ``UNREGISTERED`` error FCM sends for a
  token that is gone (firebase-admin turns it into ``UnregisteredError``).
- APNs: ``aioapns``' connection pool's ``send_notification``, below which is the HTTP/2
  stream to ``api.push.apple.com``; it records the request (token, JSON payload, topic,
  collapse id, expiry), signs the provider JWT with the configured key as the connection
  would (so a key that is a path, not a key, fails here as it would there) and answers
  200, or 410 ``Unregistered``.
"""

from __future__ import annotations

import json
import time

import jwt
import requests
from aioapns.common import NotificationResult
from aioapns.connection import JWTAuthorizationHeaderProvider
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

#: FCM's answer for a token that is no longer registered (HTTP v1 API).
UNREGISTERED = {
    "error": {
        "code": 404,
        "message": "Requested entity was not found.",
        "status": "NOT_FOUND",
        "details": [
            {
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": "UNREGISTERED",
            }
        ],
    }
}


def service_account(path, project: str) -> str:
    """Write a Google service-account file (a fresh RSA key) to ``path``; returns it."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": project,
                "private_key_id": "test",
                "private_key": pem,
                "client_email": f"push@{project}.iam.gserviceaccount.com",
                "client_id": "1",
                "token_uri": "https://oauth2.googleapis.com/token",
            }
        )
    )
    return str(path)


def apns_key(path) -> ec.EllipticCurvePrivateKey:
    """Write an APNs token key (P-256, PKCS#8 PEM, as Apple's ``AuthKey_<id>.p8``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return key


class FakeFcm:
    """Records each FCM v1 send: ``sent`` is a list of ``(url, body)``; a token in
    ``gone`` is answered 404 ``UNREGISTERED``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []
        self.gone: set[str] = set()

    def install(self, monkeypatch) -> None:
        fake = self

        def body(client, method, url, **kwargs):
            assert method == "post"
            message = kwargs["json"]
            fake.sent.append((url, message))
            if message["message"]["token"] in fake.gone:
                response = requests.Response()
                response.status_code = 404
                response._content = json.dumps(UNREGISTERED).encode()
                response.headers["Content-Type"] = "application/json"
                raise requests.exceptions.HTTPError(response=response)
            return {"name": f"{url.split('/messages')[0]}/messages/{len(fake.sent)}"}

        monkeypatch.setattr("firebase_admin._http_client.JsonHttpClient.body", body)

    def messages(self) -> list[dict]:
        return [body["message"] for _url, body in self.sent]


class FakeApns:
    """Records each APNs request: ``sent`` is a list of dicts (``server``, ``topic``,
    ``token``, ``payload``, ``collapse_id``, ``ttl``, ``jwt``: the signed provider token's
    header and claims); a token in ``gone`` is answered 410 ``Unregistered``."""

    def __init__(self, public_key) -> None:
        self.sent: list[dict] = []
        self.gone: set[str] = set()
        self.public_key = public_key

    def install(self, monkeypatch) -> None:
        fake = self

        async def send_notification(pool, request):
            header = JWTAuthorizationHeaderProvider(
                key=pool.key, key_id=pool.key_id, team_id=pool.team_id
            ).get_header()
            token = header.removeprefix("bearer ")
            claims = jwt.decode(token, fake.public_key, algorithms=["ES256"])
            fake.sent.append(
                {
                    "server": pool.protocol_class.APNS_SERVER,
                    "topic": pool.apns_topic,
                    "token": request.device_token,
                    "payload": json.loads(json.dumps(request.message, ensure_ascii=False)),
                    "collapse_id": request.collapse_key,
                    "ttl": request.time_to_live,
                    "jwt": {**jwt.get_unverified_header(token), **claims},
                }
            )
            if request.device_token in fake.gone:
                return NotificationResult(
                    request.notification_id, "410", "Unregistered", int(time.time())
                )
            return NotificationResult(request.notification_id, "200")

        monkeypatch.setattr(
            "aioapns.connection.APNsBaseConnectionPool.send_notification", send_notification
        )
