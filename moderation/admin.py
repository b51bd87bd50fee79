"""The moderators\x27 admin for talk, reports and the moderation log."""
