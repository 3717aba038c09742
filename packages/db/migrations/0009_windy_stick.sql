CREATE TABLE "git_remotes" (
	"application_id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"branch" text NOT NULL,
	"token_ciphertext" text,
	"token_iv" text,
	"token_key_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "git_remotes" ADD CONSTRAINT "git_remotes_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;