import { CHAT_IMAGES_PER_MESSAGE } from '@sprout/protocol/api/images.ts'

// What the chat input says about its images before anything reaches the server
// (docs/product/images.md); the server's refusals are its own messages.

export const TOO_MANY_IMAGES_MESSAGE = `At most ${CHAT_IMAGES_PER_MESSAGE} images per message`
export const IMAGES_UPLOADING_MESSAGE = 'Wait for the images to finish uploading'
export const IMAGES_NEED_TEXT_MESSAGE = 'Add a message to send with the images'
export const IMAGES_AFTER_RUN_HINT = 'Images can be sent once the current run ends.'
/** A queued message is text only: elements picked in the preview wait like images do. */
export const SELECTIONS_AFTER_RUN_HINT = 'Selected elements can be sent once the current run ends.'
