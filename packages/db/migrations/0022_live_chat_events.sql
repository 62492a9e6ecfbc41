-- Hand-written: committed live chat changes wake the chat streams (ADR 027), as deal events do
-- (ADR 010): a message, a conversation opened or changed (status, mode, assignment), and a staff
-- console stream opening or closing (presence). NOTIFY is delivered at commit, never for a rollback.
CREATE FUNCTION "notify_chat_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'presence' THEN
    PERFORM pg_notify('chat_events', json_build_object('conversation_id', NULL, 'kind', 'presence')::text);
  ELSIF TG_ARGV[0] = 'message' THEN
    PERFORM pg_notify('chat_events', json_build_object('conversation_id', NEW."conversation_id", 'kind', 'message')::text);
  ELSE
    PERFORM pg_notify('chat_events', json_build_object('conversation_id', NEW."id", 'kind', 'conversation')::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "chat_messages_notify" AFTER INSERT ON "chat_messages" FOR EACH ROW EXECUTE FUNCTION "notify_chat_event"('message');
--> statement-breakpoint
CREATE TRIGGER "chat_conversations_notify" AFTER INSERT ON "chat_conversations" FOR EACH ROW EXECUTE FUNCTION "notify_chat_event"('conversation');
--> statement-breakpoint
CREATE TRIGGER "chat_conversations_changed_notify" AFTER UPDATE ON "chat_conversations" FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."mode" IS DISTINCT FROM NEW."mode" OR OLD."assigned_to" IS DISTINCT FROM NEW."assigned_to") EXECUTE FUNCTION "notify_chat_event"('conversation');
--> statement-breakpoint
CREATE TRIGGER "chat_staff_presence_notify" AFTER INSERT OR DELETE ON "chat_staff_presence" FOR EACH ROW EXECUTE FUNCTION "notify_chat_event"('presence');
