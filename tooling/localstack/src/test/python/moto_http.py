"""DynamoDB and DynamoDB Streams requests to a moto launcher as the SDKs send them: JSON over HTTP, one connection.

Each request goes out in one write on a keep-alive connection (through boto3 an UpdateItem took ~25 ms here where the
same request sent this way took ~4 ms: the difference is the client's, so replaying through boto3 would drown what the
launcher does in what the client does).
"""
import http.client
import json

TARGETS = {"dynamodb": "DynamoDB_20120810.", "streams": "DynamoDBStreams_20120810."}
AUTHORIZATION = ("AWS4-HMAC-SHA256 Credential=redrive/20260101/us-east-1/dynamodb/aws4_request, "
                 "SignedHeaders=content-type;host;x-amz-target, Signature=0")


class DynamoDbHttp:
    def __init__(self, port):
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, operation, body, service="dynamodb"):
        """Sends one request; returns (status, headers as a dict with lower-case names, body bytes)."""
        data = json.dumps(body).encode("utf-8")
        self._connection.request("POST", "/", body=data, headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": TARGETS[service] + operation,
            "Authorization": AUTHORIZATION,
        })
        response = self._connection.getresponse()
        payload = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, payload

    def json(self, operation, body, service="dynamodb"):
        """Sends one request that must succeed; returns its answer parsed."""
        status, _, payload = self.call(operation, body, service)
        if status != 200:
            raise RuntimeError("%s answered %d: %s" % (operation, status, payload[:500]))
        return json.loads(payload)

    def close(self):
        self._connection.close()
