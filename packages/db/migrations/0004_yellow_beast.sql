CREATE TABLE "error_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"application_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"error_type" text NOT NULL,
	"representative_message" text NOT NULL,
	"representative_stack" jsonb NOT NULL,
	"occurrence_count" bigint NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"source" text NOT NULL,
	"last_url" text,
	"last_release" text
);
--> statement-breakpoint
CREATE TABLE "error_instances" (
	"application_id" text NOT NULL,
	"id" text NOT NULL,
	"group_id" text NOT NULL,
	"source" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"context" jsonb NOT NULL,
	"session_data" jsonb NOT NULL,
	"stack" jsonb NOT NULL,
	CONSTRAINT "error_instances_application_id_id_pk" PRIMARY KEY("application_id","id")
);
--> statement-breakpoint
CREATE TABLE "error_projects" (
	"application_id" text PRIMARY KEY NOT NULL,
	"project_id" integer GENERATED ALWAYS AS IDENTITY (sequence name "error_projects_project_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone,
	CONSTRAINT "error_projects_project_id_unique" UNIQUE("project_id")
);
--> statement-breakpoint
ALTER TABLE "error_groups" ADD CONSTRAINT "error_groups_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_instances" ADD CONSTRAINT "error_instances_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_instances" ADD CONSTRAINT "error_instances_group_id_error_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."error_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_projects" ADD CONSTRAINT "error_projects_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "error_groups_application_fingerprint_idx" ON "error_groups" USING btree ("application_id","fingerprint");--> statement-breakpoint
CREATE INDEX "error_groups_application_status_seen_idx" ON "error_groups" USING btree ("application_id","status","last_seen_at");--> statement-breakpoint
CREATE INDEX "error_instances_group_occurred_idx" ON "error_instances" USING btree ("group_id","occurred_at");