CREATE TABLE "app_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"application_id" text NOT NULL,
	"run_id" text,
	"trigger" text NOT NULL,
	"state" text NOT NULL,
	"report" jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organization_check_settings" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"auto_repair" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_hand_edits" (
	"application_id" text NOT NULL,
	"path" text NOT NULL,
	"editor_id" text NOT NULL,
	"editor_name" text NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_hand_edits_application_id_path_editor_id_pk" PRIMARY KEY("application_id","path","editor_id")
);
--> statement-breakpoint
ALTER TABLE "error_groups" ADD COLUMN "regressed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "git_remotes" ADD COLUMN "integration" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "repair_of" text;--> statement-breakpoint
ALTER TABLE "app_checks" ADD CONSTRAINT "app_checks_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_checks" ADD CONSTRAINT "app_checks_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_check_settings" ADD CONSTRAINT "organization_check_settings_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_hand_edits" ADD CONSTRAINT "app_hand_edits_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_checks_application_idx" ON "app_checks" USING btree ("application_id","started_at");