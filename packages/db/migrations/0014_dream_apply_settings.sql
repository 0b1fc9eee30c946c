CREATE TABLE "dream_apply_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"base_url" varchar(300) DEFAULT '' NOT NULL,
	"api_key" text,
	"edit_timestamp" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"edit_user" integer,
	CONSTRAINT "dream_apply_settings_singleton" CHECK ("dream_apply_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "dream_apply_settings" ADD CONSTRAINT "dream_apply_settings_edit_user_users_id_fk" FOREIGN KEY ("edit_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;