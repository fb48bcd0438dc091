// Russian and English; Russian by default for a Russian browser, the choice kept locally.
const TEXT = {
  lobby: ["Lobby", "Лобби"], history: ["History", "История"], leaderboard: ["Leaderboard", "Рейтинг"],
  guest: ["Play as a guest", "Играть гостем"], name: ["Name", "Имя"], password: ["Password", "Пароль"],
  register: ["Register", "Регистрация"], login: ["Log in", "Войти"], logout: ["Log out", "Выйти"],
  newTable: ["New table", "Новый стол"], game: ["Game", "Игра"], players: ["Players", "Игроков"],
  fishMode: ["Fish", "Рыба"], for_everyone: ["for everyone", "на всех"], for_one: ["for one", "на одного"],
  moveTime: ["Time per move, s", "Время на ход, с"], rated: ["Rated", "На рейтинг"],
  access: ["Access", "Доступ"], open: ["open to all", "открытый"],
  invitation_link: ["by invitation link", "по ссылке-приглашению"],
  bots: ["Fill empty seats with bots", "Посадить ботов на свободные места"], level: ["Bot level", "Уровень ботов"],
  create: ["Create", "Создать"], openTables: ["Open tables", "Открытые столы"], join: ["Join", "Сесть"],
  watch: ["Watch", "Смотреть"], none: ["No open tables yet.", "Открытых столов пока нет."],
  seats: ["Seats", "Места"], empty: ["empty", "свободно"], waiting: ["Waiting for players", "Ждём игроков"],
  invite: ["Invitation link", "Ссылка-приглашение"], yourTurn: ["Your move", "Ваш ход"],
  turnOf: ["Move: {name}", "Ходит: {name}"], tiles: ["tiles", "кост."], bazar: ["bazar", "базар"],
  round: ["Round {n}", "Партия {n}"], draw: ["Draw", "Взять"], pass: ["Pass", "Пропустить"],
  stop: ["Stop", "Закончить ход"], matchOver: ["Match over", "Игра окончена"],
  winners: ["Winners", "Победители"], losers: ["Losers", "Проигравшие"],
  nobodyWon: ["Nobody won", "Никто не выиграл"],
  goat: ["Goat", "Козёл"], donkey: ["Donkey", "Осёл"], rematch: ["Rematch", "Реванш"], replay: ["Replay", "Повтор"],
  download: ["Download", "Скачать"], upload: ["Upload a record", "Загрузить запись"],
  roundResult: ["Round result", "Итоги партии"], fish: ["fish", "рыба"],
  commitment: ["Deal commitment (sha256 of the seed)", "Обязательство раздачи (sha256 сида)"],
  revealed: ["Seed revealed: {seed} — hash matches ✓", "Сид раскрыт: {seed} — хэш совпадает ✓"],
  mismatch: ["Seed revealed: {seed} — HASH MISMATCH", "Сид раскрыт: {seed} — ХЭШ НЕ СОВПАДАЕТ"],
  timeout: ["Interrupted: {name} ran out of time", "Прервана: у {name} кончилось время"],
  gone: ["Interrupted: {name} left the table", "Прервана: {name} покинул стол"],
  ratings: ["Rating changes", "Изменения рейтинга"], kozelRating: ["Kozel club rating", "Клубный рейтинг «Козла»"],
  skill: ["Skill (OpenSkill)", "Сила игры (OpenSkill)"], games: ["Games", "Игр"],
  profile: ["Profile", "Профиль"], changePassword: ["Change the password", "Сменить пароль"],
  oldPassword: ["Password now", "Нынешний пароль"], newPassword: ["New password", "Новый пароль"],
  passwordChanged: ["The password is changed: every other session of yours has ended.", "Пароль сменён: все другие ваши входы закрыты."], spectator: ["You are watching", "Вы зритель"],
  start: ["Start", "Начало"], prev: ["Back", "Назад"], next: ["Forward", "Вперёд"], end: ["End", "Конец"],
  verified: ["deal confirmed by its seed", "раздача подтверждена сидом"], move: ["Move", "Ход"],
  leaveFirst: ["Log in first", "Сначала войдите"], seatN: ["seat {n}", "место {n}"],
  bot: ["bot", "бот"], guestMark: ["guest", "гость"], leftEnd: ["left", "слева"], rightEnd: ["right", "справа"],
  // a player away from the table
  disconnected: ["{name} disconnected: waiting {s} s for a return", "{name}: нет связи, ждём возвращения {s} с"],
  reconnected: ["{name} is back", "{name} снова за столом"],
  replaced: ["{name} is replaced by a bot", "Вместо {name} играет бот"],
  returning: ["{name} takes the seat back at the next turn", "{name} вернётся в игру на своём ходу"],
  back: ["{name} plays again", "{name} снова играет сам"],
  closed: ["The table is closed: everybody left it", "Стол закрыт: все из-за него встали"],
  deserted: ["Interrupted: every player left the table to the bots", "Прервана: все игроки ушли, оставив стол ботам"],
  // a rematch: asked for by one player, accepted by each of the others
  rematchAsked: ["{name} asks for a rematch", "{name} предлагает реванш"],
  acceptRematch: ["Accept the rematch", "Принять реванш"],
  reservedFor: ["kept for {name}", "место для {name}"],
  // a bot plays for you: why, and your seat back
  standInTimeout: ["Your time ran out: a bot is playing for you.", "Ваше время вышло: за вас играет бот."],
  standInGone: ["You were away: a bot is playing for you.", "Вас долго не было: за вас играет бот."],
  takeBack: ["Take my seat back", "Вернуться в игру"],
  backNext: ["Your seat is yours again from your next turn.", "Место снова ваше с вашего следующего хода."],
  yourBot: ["your bot", "ваш бот"],
  // the boards of the game families
  upEnd: ["up", "вверх"], downEnd: ["down", "вниз"], slotEnd: ["the spinner", "к кресту"],
  engine: ["Engine", "Паровоз"], mexicanTrain: ["Mexican train", "Мексиканский поезд"],
  trainOf: ["{name}'s train", "поезд: {name}"], branch: ["branch {id}", "ветка {id}"],
  joint: ["joint {n}", "стык {n}"],
  contract: ["Bid {bid}: {name}", "Заявка {bid}: {name}"], trumpsAre: ["Trumps: {suit}", "Козыри: {suit}"],
  sidePoints: ["Points: {a} : {b}", "Очки: {a} : {b}"], tricksTaken: ["Tricks played: {n}", "Сыграно взяток: {n}"],
  bidding: ["Bidding", "Торговля"], potChips: ["Pot: {n}", "Банк: {n}"], putChips: ["in the pot {n}", "в банке {n}"],
  folded: ["folded", "сбросил"], lastMove: ["Last move", "Последний ход"],
  // the words of the moves that lay no tile, and of the variants of a play
  bid: ["Bid", "Заявка"], trumps: ["Trumps", "Козыри"], check: ["Check", "Чек"], bet: ["Bet", "Ставка"],
  call: ["Call", "Уравнять"], raise: ["Raise", "Поднять"], fold: ["Fold", "Сбросить"],
  cut: ["Cut", "Разрезать"], close: ["Close", "Закрыть"], last: ["Last tile", "Последняя"],
  announce: ["Announce", "Объявить"], challenge: ["Challenge", "Оспорить"], skip: ["Skip", "Пропуск"],
  // domino poker's combinations, as the engine names them
  "rank.No Combination": ["no combination", "без комбинации"], "rank.Pair": ["Pair", "пара"],
  "rank.Flush": ["Flush", "флеш"], "rank.Three": ["Three", "тройка"],
  "rank.Four Straight": ["Four Straight", "стрит из четырёх"], "rank.Full Hand": ["Full Hand", "фулл"],
  "rank.Five Straight": ["Five Straight", "стрит из пяти"], "rank.Four of a Kind": ["Four of a Kind", "каре"],
  "rank.Six Straight": ["Six Straight", "стрит шестёрок"], "rank.Royal Flush": ["Royal Flush", "роял-флеш"],
  // the form: what cannot be rated
  ratedNoBots: ["A rated game has no bots: ratings are between registered players", "Игра с ботами не идёт в рейтинг: рейтинг — только между зарегистрированными игроками"],
  ratedNoGuests: ["Guests play unrated: register to play for a rating", "Гости играют без рейтинга: зарегистрируйтесь, чтобы играть на рейтинг"],
  // the server's refusals, by their code (bazar/server/errors.py), with its parameters
  "error.login_first": ["Log in first (as a guest or with your account)", "Сначала войдите (гостем или в свою учётную запись)"],
  "error.too_large": ["The request is too large (at most {limit} bytes)", "Слишком большой запрос (не больше {limit} байт)"],
  "error.not_json": ["The request must be JSON", "Запрос должен быть в JSON"],
  "error.not_login": ["Expected a name and a password", "Нужны имя и пароль"],
  "error.not_object": ["The request must be a JSON object", "Запрос должен быть объектом JSON"],
  "error.json_only": ["Send the request body as application/json", "Тело запроса отправляйте как application/json"],
  "error.origin": ["A request from another site ({origin}) may not act on this club", "Запрос с другого сайта ({origin}) не может действовать в этом клубе"],
  "error.name_form": ["A name is 1 to 24 letters, digits, spaces, dots or dashes", "Имя — от 1 до 24 букв, цифр, пробелов, точек или дефисов"],
  "error.password_form": ["A password has 6 to 200 characters", "В пароле от 6 до 200 символов"],
  "error.name_taken": ["The name {name} is taken", "Имя {name} уже занято"],
  "error.wrong_login": ["Wrong name or password", "Неверное имя или пароль"],
  "error.too_many_guests": ["At most {limit} guests an hour from one address: try again in {retry_after} s", "Не больше {limit} гостей в час с одного адреса: попробуйте через {retry_after} с"],
  "error.too_many_tables": ["You have {limit} tables open or playing already: finish or leave one first", "У вас уже {limit} открытых или идущих столов: доиграйте или покиньте один из них"],
  "error.too_many_tries": ["Too many tries: try again in {retry_after} s", "Слишком много попыток: попробуйте снова через {retry_after} с"],
  "error.name_reserved": ["The name {name} is a bot's", "Имя {name} — имя бота"],
  "error.wrong_password": ["Wrong password", "Неверный пароль"],
  "error.guest_password": ["A guest has no password: register first", "У гостя нет пароля: сначала зарегистрируйтесь"],
  "error.not_password": ["Expected the old and the new password", "Нужны старый и новый пароли"],
  "error.unknown_game": ["Unknown game {game}; games: {games}", "Игры {game} нет; есть: {games}"],
  "error.unknown_game_near": ["Unknown game {game} (did you mean {near}?); games: {games}", "Игры {game} нет (может быть, {near}?); есть: {games}"],
  "error.options_form": ["The options must map option names to plain values", "Опции — это имена опций и простые значения"],
  "error.players_form": ["The number of players must be a whole number", "Число игроков должно быть целым"],
  "error.rules": ["{reason}", "{reason_ru}"],
  "error.move_time": ["The time per move is one of {times} seconds", "Время на ход — одно из: {times} с"],
  "error.access": ["Access is one of {values}", "Доступ — одно из: {values}"],
  "error.seat_form": ["The seat must be 0 to {last}", "Место — от 0 до {last}"],
  "error.option_range": ["Option {option} of {game} takes a number from {low} to {high} here", "Опция {option} игры {game} здесь — число от {low} до {high}"],
  "error.seat_number": ["The seat must be a seat number: 0, 1, ...", "Место — это номер места: 0, 1, ..."],
  "error.invite_form": ["'Invite' must be the token of the table's invitation link", "«invite» — это ключ из ссылки-приглашения к столу"],
  "error.rated_form": ["'Rated' must be true or false", "«На рейтинг» — true или false"],
  "error.rated_guest": ["A rated table is for registered players: guests play unrated tables", "Стол на рейтинг — только для зарегистрированных игроков: гости играют без рейтинга"],
  "error.rated_bots": ["A rated table has no bots (ratings are between registered players only): untick rated, or leave the seats to people", "За столом на рейтинг не бывает ботов (рейтинг — только между зарегистрированными игроками): снимите «На рейтинг» или оставьте места людям"],
  "error.no_table": ["There is no such table", "Такого стола нет"],
  "error.table_broken": ["This table is out of order: the server could not rebuild it from its stored moves", "Этот стол сломан: сервер не смог восстановить его по сохранённым ходам"],
  "error.started": ["The table has started", "Игра за этим столом уже началась"],
  "error.invitation": ["This table is by invitation link only", "За этот стол можно сесть только по ссылке-приглашению"],
  "error.seated": ["You already sit at this table", "Вы уже сидите за этим столом"],
  "error.no_free_seat": ["No free seat", "Свободных мест нет"],
  "error.seat_taken": ["That seat is not free", "Это место занято"],
  "error.owner_bots": ["Only the table's owner can call bots", "Звать ботов может только хозяин стола"],
  "error.unknown_level": ["Unknown bot level {level}; levels: {levels}", "Уровня ботов {level} нет; есть: {levels}"],
  "error.no_seat_to_leave": ["You have no seat to leave at a table that has not started", "Вам не с чего вставать: вы не сидите за этим столом или игра уже началась"],
  "error.seat_reserved": ["Seat {seat} is kept for {name}, who played the match before", "Место {seat} оставлено для {name}: он играл прошлую игру"],
  "error.bots_alone": ["Bots play with people: sit at the table before you call them", "Боты играют только с людьми: сядьте за стол, прежде чем звать их"],
  "error.rematch_player": ["Only a player of the table can ask for a rematch", "Реванш может попросить только игрок этого стола"],
  "error.not_over": ["The match is not over", "Игра ещё не окончена"],
  "error.rematch_closed": ["The time for a rematch of this table is over", "Время для реванша за этим столом вышло"],
  "error.text_frames": ["Send JSON in text frames", "Присылайте JSON текстовыми сообщениями"],
  "error.message_too_large": ["The message is over {limit} bytes", "Сообщение длиннее {limit} байт"],
  "error.message_form": ["Messages are JSON objects", "Сообщения — объекты JSON"],
  "error.hello_first": ["Send {\"type\": \"hello\", \"v\": N} first", "Сначала отправьте {\"type\": \"hello\", \"v\": N}"],
  "error.unknown_message": ["Unknown message; send hello, move, back or ping", "Неизвестное сообщение; можно hello, move, back или ping"],
  "error.too_fast": ["Too many messages: at most {rate} a second", "Слишком много сообщений: не больше {rate} в секунду"],
  "error.spectator": ["Spectators cannot move", "Зрители не ходят"],
  "error.move_form": ["A move must be written in notation", "Ход должен быть записан нотацией"],
  "error.v_form": ["The version must be the last one seen", "Версия должна быть последней увиденной"],
  "error.malformed_move": ["Malformed move {move}", "Ход {move} записан неверно"],
  "error.illegal_move": ["{move} is not a legal move now; legal: {legal}", "Ход {move} сейчас невозможен; можно: {legal}"],
  "error.not_started": ["The match has not started", "Игра ещё не началась"],
  "error.match_over": ["The match is over", "Игра окончена"],
  "error.bot_seat": ["A bot has taken your seat", "Ваше место занял бот"],
  "error.no_bot_for_you": ["No bot plays for you", "За вас не играет бот"],
  "error.not_your_turn": ["Not your turn", "Сейчас не ваш ход"],
  "error.stale": ["The table moved on before your move arrived: choose again", "Пока ваш ход шёл, за столом сходили: выберите снова"],
  "error.not_stored": ["The server could not store your move (its database is busy): the move is not made, make it again", "Сервер не смог сохранить ваш ход (база данных занята): ход не сделан, сходите ещё раз"],
  "error.db_busy": ["The club's database is busy: nothing was changed; try again in {retry_after} s", "База данных клуба занята: ничего не изменилось; попробуйте снова через {retry_after} с"],
  "error.no_record": ["No such record", "Такой записи нет"],
  "error.ply_form": ["The move number must be a whole number", "Номер хода должен быть целым"],
  "error.record_too_large": ["A record has at most {limit} bytes", "Запись — не больше {limit} байт"],
  "error.bad_record": ["{reason}", "{reason_ru}"],
  "error.no_player": ["No such player", "Такого игрока нет"],
};

export let lang = localStorage.getItem("bazar.lang")
  || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en");

export function setLang(value) {
  lang = value;
  localStorage.setItem("bazar.lang", value);
  document.documentElement.lang = value;
}

export function t(key, vars = {}) {
  const pair = TEXT[key];
  let s = pair ? pair[lang === "ru" ? 1 : 0] : key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}

// A refusal of the server ({message, code, params}) in the page's language; its English
// message where this page does not know the code.
export function errorText(error) {
  const key = `error.${error.code}`;
  return error.code && key in TEXT ? t(key, error.params || {}) : error.message;
}
