CREATE TABLE "box_leases" (
	"application_id" text PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sprout_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"internal_url" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "box_leases" ADD CONSTRAINT "box_leases_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "box_leases_instance_idx" ON "box_leases" USING btree ("instance_id");