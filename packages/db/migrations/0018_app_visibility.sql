ALTER TABLE "applications" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "allowed_emails" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devbox_auth_tokens" ADD COLUMN "host" text DEFAULT 'preview' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "application_id" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "from_name" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_application_idx" ON "mail_outbox" USING btree ("application_id","created_at");