CREATE TABLE "devbox_pool" (
	"id" text PRIMARY KEY NOT NULL,
	"pack_type" text NOT NULL,
	"state" text NOT NULL,
	"instance_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_runtime_tokens" ADD COLUMN "sealed_token" text;--> statement-breakpoint
ALTER TABLE "devboxes" ADD COLUMN "built_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devboxes" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "devbox_pool_pack_state_idx" ON "devbox_pool" USING btree ("pack_type","state");--> statement-breakpoint
-- Boxes from before this migration are treated as built: opened again, their workspace kept.
UPDATE "devboxes" SET "built_at" = "created_at";
