ALTER TABLE "evaluation_items" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "evaluation_items" ADD COLUMN "heartbeat_at" timestamp with time zone;