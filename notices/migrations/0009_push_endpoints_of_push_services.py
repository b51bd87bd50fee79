"""Drop the Web Push subscriptions whose endpoint is not a known push service's https
address (``notices.push_endpoints``: the API took any URL before, ``http://127.0.0.1:…``
and the cloud's metadata address among them), and write the others in their one spelling
(host lower-cased, no trailing dot, no ``:443``), keeping the newest row of an endpoint
spelled twice. The sender skips such a row anyway; this leaves none to skip."""

from django.db import migrations

from notices import push_endpoints


def keep_push_services_only(apps, schema_editor) -> int:
    """Delete every ``PushSubscription`` off the push services, respell the rest; returns
    how many rows went."""
    subscription_model = apps.get_model("notices", "PushSubscription")
    refused, respelled, kept = [], {}, {}
    rows = subscription_model.objects.order_by("-created_at", "-pk").values_list("pk", "endpoint")
    for pk, endpoint in rows.iterator():
        spelled = push_endpoints.canonical(endpoint)
        if spelled is None or spelled in kept:  # off the services, or an older duplicate
            refused.append(pk)
            continue
        kept[spelled] = pk
        if spelled != endpoint:
            respelled[pk] = spelled
    deleted, _by_model = subscription_model.objects.filter(pk__in=refused).delete()
    for pk, spelled in respelled.items():
        subscription_model.objects.filter(pk=pk).update(endpoint=spelled)
    return deleted


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0008_push_seat_left"),
    ]

    operations = [
        migrations.RunPython(keep_push_services_only, migrations.RunPython.noop, elidable=True),
    ]
