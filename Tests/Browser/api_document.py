"""Checks API answers against the OpenAPI document the server serves (Public/api/openapi.json):
the status is one the operation lists, the media type one it lists for that status, the body
valid against its schema (JSON Schema 2020-12, the document's own $refs), and every header the
document names for that answer is there and fits its schema."""
import json
import re
import urllib.error
import urllib.request

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_URI = "urn:quickcart:openapi"


class Document:
    def __init__(self, document):
        self.document = document
        self.registry = Registry().with_resource(DOCUMENT_URI, Resource.from_contents(document, default_specification=DRAFT202012))
        self.seen = set()
        self.templates = [(template, re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "$")) for template in document["paths"]]

    def template(self, path):
        """The document's path template a request path matches (literal segments first)."""
        matches = [template for template, pattern in self.templates if pattern.match(path)]
        assert matches, f"{path} is in no path of the document"
        return min(matches, key=lambda template: template.count("{"))

    def answer(self, template, method, status):
        """The document's answer for a status, its $ref followed, with the JSON pointer to it."""
        responses = self.document["paths"][template][method.lower()]["responses"]
        assert str(status) in responses, f"{method} {template}: status {status} is not in the document ({sorted(responses)})"
        pointer = "/paths/" + template.replace("~", "~0").replace("/", "~1") + f"/{method.lower()}/responses/{status}"
        answer = responses[str(status)]
        while "$ref" in answer:
            pointer = answer["$ref"][1:]
            answer = self.resolve(pointer)
        return answer, pointer

    def resolve(self, pointer):
        value = self.document
        for part in pointer.strip("/").split("/"):
            value = value[part.replace("~1", "/").replace("~0", "~")]
        return value

    def validate(self, value, pointer, what):
        schema = {"$ref": DOCUMENT_URI + "#" + pointer}
        errors = sorted(Draft202012Validator(schema, registry=self.registry).iter_errors(value), key=str)
        assert not errors, f"{what}: {errors[0].message} at {list(errors[0].absolute_path)}"

    def check(self, method, path, status, headers, body):
        """Checks one answer; remembers that the operation answered this status."""
        template = self.template(path.split("?")[0])
        answer, pointer = self.answer(template, method, status)
        self.seen.add((template, method.lower(), str(status)))
        what = f"{method} {path} → {status}"
        content = answer.get("content")
        media = (headers.get("Content-Type") or "").split(";")[0].strip()
        if content:
            assert media in content, f"{what}: Content-Type {media!r} is not one of {sorted(content)}"
            if media in ("application/json", "application/problem+json"):
                self.validate(json.loads(body), pointer + "/content/" + media.replace("/", "~1") + "/schema", what)
            elif media == "text/event-stream":
                for event in server_sent_events(body):
                    self.validate(event, pointer + "/content/text~1event-stream/schema", f"{what}, event {event}")
        else:
            assert not body, f"{what}: a body where the document says none"
        for name, header in answer.get("headers", {}).items():
            while "$ref" in header:
                header = self.resolve(header["$ref"][1:])
            value = headers.get(name)
            assert value is not None, f"{what}: no {name} header, which the document names"
            schema = header.get("schema", {})
            errors = list(Draft202012Validator(schema, registry=self.registry).iter_errors(value))
            assert not errors, f"{what}: {name}: {value!r}: {errors[0].message}"

    def operations(self):
        """Every (path, method, status) the document lists."""
        for template, item in self.document["paths"].items():
            for method, operation in item.items():
                if method in ("get", "put", "post", "patch", "delete"):
                    for status in operation["responses"]:
                        yield template, method, status


class Client:
    """Sends API requests (a token, JSON) and checks each answer against the document."""

    def __init__(self, base, document, token=None):
        self.base = base
        self.document = document
        self.token = token

    def send(self, method, path, json_body=None, body=None, content_type="application/json", headers=None, check=True, stream=False):
        fields = dict(headers or {})
        if self.token:
            fields["Authorization"] = f"Bearer {self.token}"
        data = body if body is not None else (json.dumps(json_body).encode() if json_body is not None else None)
        if data is not None and content_type:
            fields["Content-Type"] = content_type
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=fields)
        try:
            response = urllib.request.urlopen(request, timeout=10)
        except urllib.error.HTTPError as error:
            response = error
        status = response.status if hasattr(response, "status") else response.code
        answer_headers = response.headers
        text = first_event(response) if stream and status == 200 else response.read()
        response.close()
        if check:
            self.document.check(method, path, status, answer_headers, text)
        parsed = json.loads(text) if text and (answer_headers.get("Content-Type") or "").startswith(("application/json", "application/problem+json")) else None
        return status, answer_headers, parsed


def first_event(response):
    """A stream's lines up to the end of its first event with data."""
    lines = []
    while line := response.readline():
        lines.append(line)
        if line.strip() == b"" and any(field.startswith(b"data:") for field in lines):
            break
    return b"".join(lines)


def server_sent_events(body):
    """Each event of a stream's text as a client reads it: its fields by name (`retry` a number)."""
    events = []
    for block in body.decode().replace("\r\n", "\n").split("\n\n"):
        event = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            event[name] = int(value) if name == "retry" else event.get(name, "") + ("\n" if name == "data" and name in event else "") + value
        if event:
            events.append(event)
    return events

